#!/usr/bin/python3
"""The pandas peer of bench/peers.mjs (issue 58): what a plant engineer writes in Python for the
path Tributary's single-file bench measures, with the same work and the same wire format
(../shared/spec/decisions.md, remotedatapost wire format):

  read the CSV (pandas.read_csv), read the time column with its strptime format as local time in
  --localtz and convert it to --timezone (vectorized to_datetime + tz_localize + tz_convert), build
  one record per row ({asset, stream_type, timestamp, capturetime, record_id, fieldvalues}), and per
  batch of --batch records: BSON documents, gzip (level 2, memLevel 9, as Tributary), Fernet with the key
  urlsafe-base64(SHA-256(API key)), PUT as multipart part `sslog` to <url>/v1/rdp2/sslogs over one
  kept-alive connection. An answer other than 200 with "success": true stops it (no retries, no
  on-disk buffer: Tributary keeps both).

Debian: apt-get install python3-pandas python3-cryptography python3-bson python3-bson-ext (the
last is BSON's C extension, as pip's pymongo wheel has it). Prints `ready` once its imports are
done, waits for --file to appear (the drop), then prints one JSON line: rows, seconds, cpu_seconds
(this process, from the drop seen to the last answer), peak_rss_mb and the seconds of each stage.
"""
import argparse
import base64
import datetime
import hashlib
import http.client
import json
import os
import resource
import sys
import time
import urllib.parse
import uuid
import zlib

import bson
import pandas as pd
from cryptography.fernet import Fernet


def arguments():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--file', required=True, help='the CSV to read; waited for until it exists')
    parser.add_argument('--url', required=True, help='base URL of the ingest server')
    parser.add_argument('--key-id', required=True)
    parser.add_argument('--api-key', required=True)
    parser.add_argument('--asset', default='Machine_0')
    parser.add_argument('--stream-type', default='process')
    parser.add_argument('--time-field', default='time')
    parser.add_argument('--format', default='%Y-%m-%d %H:%M:%S')
    parser.add_argument('--localtz', default='UTC', help='zone of the times in the file')
    parser.add_argument('--timezone', default='UTC', help='zone the time field is converted to')
    parser.add_argument('--batch', type=int, default=3000, help='records per upload')
    return parser.parse_args()


class Uploader:
    """PUTs Fernet tokens as multipart/form-data over one kept-alive HTTP connection."""

    def __init__(self, base_url, key_id, api_key):
        url = urllib.parse.urlsplit(base_url)
        self.path = url.path.rstrip('/') + '/v1/rdp2/sslogs'
        self.connection = http.client.HTTPConnection(url.hostname, url.port or 80, timeout=60)
        self.key_id = key_id
        self.fernet = Fernet(base64.urlsafe_b64encode(hashlib.sha256(api_key.encode('utf-8')).digest()))

    def upload(self, documents):
        # gzip level 2 with memLevel 9, as Tributary (wbits 31: a gzip header and trailer).
        packer = zlib.compressobj(2, zlib.DEFLATED, 31, 9)
        token = self.fernet.encrypt(packer.compress(documents) + packer.flush())
        boundary = uuid.uuid4().hex
        head = (f'--{boundary}\r\nContent-Disposition: form-data; name="sslog"; filename="p.tmp"\r\n'
                'Content-Type: application/octet-stream\r\n\r\n').encode('latin-1')
        body = head + token + f'\r\n--{boundary}--\r\n'.encode('latin-1')
        self.connection.request('PUT', self.path, body, {
            'Content-Type': f'multipart/form-data; boundary={boundary}',
            'X-SM-API-Key-ID': self.key_id,
            'Accept': 'application/json',
        })
        response = self.connection.getresponse()
        answer = response.read()
        if response.status != 200 or not json.loads(answer).get('success'):
            sys.exit(f'upload refused: HTTP {response.status} {answer[:200]!r}')


def main():
    args = arguments()
    uploader = Uploader(args.url, args.key_id, args.api_key)
    print('ready', flush=True)
    while not os.path.exists(args.file):
        time.sleep(0.05)
    started, cpu_started = time.perf_counter(), time.process_time()
    stages = {}

    frame = pd.read_csv(args.file)
    capturetime = datetime.datetime.now(datetime.timezone.utc)
    stages['read_csv'] = time.perf_counter() - started

    at = time.perf_counter()
    times = pd.to_datetime(frame[args.time_field], format=args.format).dt.tz_localize(args.localtz).dt.tz_convert(args.timezone)
    text_format = '%Y-%m-%dT%H:%M:%S.%fZ' if args.timezone == 'UTC' else '%Y-%m-%dT%H:%M:%S.%f%z'
    frame[args.time_field] = times.dt.strftime(text_format)
    timestamps = times.dt.tz_convert('UTC').dt.to_pydatetime()
    # record_id: a hash of asset, stream type and file, then the line in the file (1 is the header).
    prefix = hashlib.sha256(f'{args.asset}\0{args.stream_type}\0{os.path.abspath(args.file)}'.encode('utf-8')).hexdigest()[:20]
    record_ids = [f'{prefix}{line:012x}' for line in range(2, len(frame) + 2)]
    stages['timestamps'] = time.perf_counter() - at

    at = time.perf_counter()
    for start in range(0, len(frame), args.batch):
        rows = frame.iloc[start:start + args.batch].to_dict('records')
        documents = b''.join(bson.encode({
            'asset': args.asset,
            'stream_type': args.stream_type,
            'timestamp': timestamps[start + i],
            'capturetime': capturetime,
            'record_id': record_ids[start + i],
            'fieldvalues': row,
        }) for i, row in enumerate(rows))
        uploader.upload(documents)
    stages['records_bson_gzip_fernet_post'] = time.perf_counter() - at

    print(json.dumps({
        'peer': 'pandas',
        'rows': len(frame),
        'seconds': round(time.perf_counter() - started, 3),
        'cpu_seconds': round(time.process_time() - cpu_started, 3),
        'peak_rss_mb': round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / 1e6),
        'stages_seconds': {name: round(seconds, 3) for name, seconds in stages.items()},
        'python': sys.version.split()[0],
        'pandas': pd.__version__,
        'bson_c_extension': bson.has_c(),
    }), flush=True)


if __name__ == '__main__':
    main()
