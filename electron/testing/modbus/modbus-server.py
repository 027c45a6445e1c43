#!/usr/bin/python3
"""A Modbus TCP test server (Debian's python3-pymodbus, 3.0) holding the values of plant.json.

Each value is encoded here with Python's struct, independently of the agent's decoder, and placed at
its 0-based address in its unit's table. Usage: modbus-server.py [--host 127.0.0.1] [--port 5020].
"""
import argparse
import asyncio
import json
import logging
import os
import struct

from pymodbus.datastore import ModbusSequentialDataBlock, ModbusServerContext, ModbusSlaveContext
from pymodbus.server import StartAsyncTcpServer

FORMATS = {"int16": "h", "uint16": "H", "int32": "i", "uint32": "I", "int64": "q", "uint64": "Q", "float32": "f", "float64": "d"}


def registers_of(entry):
    """The registers (16-bit numbers) that hold one value, in the order they stand on the device."""
    kind = entry["data_type"]
    if kind == "string":
        raw = entry["value"].encode("ascii").ljust(entry["length"] * 2, b"\0")
    else:
        raw = struct.pack(">" + FORMATS[kind], entry["value"])  # ABCD: big-endian, first register first
    words = [raw[i:i + 2] for i in range(0, len(raw), 2)]
    order = entry.get("byte_order", "ABCD")
    if order in ("CDAB", "DCBA"):
        words.reverse()
    if order in ("BADC", "DCBA"):
        words = [w[::-1] for w in words]
    return [int.from_bytes(w, "big") for w in words]


def unit_context(values, size):
    tables = {"holding": [0] * size, "input": [0] * size, "coil": [False] * size, "discrete": [False] * size}
    for entry in values:
        table = tables[entry["table"]]
        if entry["data_type"] == "bool":
            table[entry["address"]] = entry["value"]
        else:
            for i, word in enumerate(registers_of(entry)):
                table[entry["address"] + i] = word
    block = lambda data: ModbusSequentialDataBlock(0, data)  # noqa: E731
    return ModbusSlaveContext(
        hr=block(tables["holding"]), ir=block(tables["input"]), co=block(tables["coil"]), di=block(tables["discrete"]), zero_mode=True
    )


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=5020)
    args = parser.parse_args()
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "plant.json"), encoding="utf-8") as f:
        plant = json.load(f)
    units = sorted({entry["unit"] for entry in plant["values"]})
    slaves = {unit: unit_context([e for e in plant["values"] if e["unit"] == unit], plant["size"]) for unit in units}
    # pymodbus logs every closed client as an error; only a failure to serve matters here.
    logging.basicConfig(level=logging.CRITICAL)
    asyncio.run(serve(ModbusServerContext(slaves=slaves, single=False), args.host, args.port))


async def serve(context, host, port):
    # Started by hand: pymodbus 3.0's StartTcpServer swallows a failure to listen and waits forever.
    # allow_reuse_address: a restart listens again at once, though the killed server's sockets linger in TIME_WAIT.
    server = await StartAsyncTcpServer(context=context, address=(host, port), defer_start=True, allow_reuse_address=True)
    serving = asyncio.create_task(server.serve_forever())
    await asyncio.wait([server.serving, serving], return_when=asyncio.FIRST_COMPLETED)
    if serving.done():
        serving.result()  # the failure to listen, as a traceback and exit status 1
    print("listening", flush=True)
    await serving


if __name__ == "__main__":
    main()
