#!/usr/bin/env node
// Draws Tributary's icons (a river delta: three streams joining) as PNGs into resources/, with no
// image library: raw RGBA rows, zlib, and the PNG chunk format. Run once; the PNGs are committed.
import fs from 'node:fs';
import zlib from 'node:zlib';

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf) => {
  let c = 0xffffffff;
  for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
function png(size, pixel) {
  const rows = [];
  for (let y = 0; y < size; y += 1) {
    const row = Buffer.alloc(1 + size * 4);
    for (let x = 0; x < size; x += 1) row.set(pixel(x / size, y / size), 1 + x * 4);
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', zlib.deflateSync(Buffer.concat(rows))), chunk('IEND', Buffer.alloc(0))]);
}
const distanceToSegment = (px, py, ax, ay, bx, by) => {
  const t = Math.max(0, Math.min(1, ((px - ax) * (bx - ax) + (py - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2)));
  return Math.hypot(px - (ax + t * (bx - ax)), py - (ay + t * (by - ay)));
};
function icon(background) {
  return (x, y) => {
    const r = Math.hypot(x - 0.5, y - 0.5);
    if (r > 0.48) return [0, 0, 0, 0];
    const streams = [
      distanceToSegment(x, y, 0.22, 0.2, 0.5, 0.62),
      distanceToSegment(x, y, 0.5, 0.16, 0.5, 0.62),
      distanceToSegment(x, y, 0.78, 0.2, 0.5, 0.62),
      distanceToSegment(x, y, 0.5, 0.62, 0.5, 0.86),
    ];
    return Math.min(...streams) < 0.055 ? [255, 255, 255, 255] : [...background, 255];
  };
}
const colours = { green: [46, 160, 67], amber: [210, 140, 20], red: [200, 50, 40], grey: [120, 128, 136] };
fs.writeFileSync('resources/icon.png', png(512, icon([24, 96, 160])));
for (const [name, rgb] of Object.entries(colours)) fs.writeFileSync(`resources/tray-${name}.png`, png(32, icon(rgb)));
console.log('icons written to resources/');
