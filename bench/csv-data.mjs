// The bench's CSV data (bench/run.mjs, bench/worker-cpu.mjs).
import fs from 'node:fs';

/** 8 columns: time, machine state, 4 floats, an integer counter, a short text. */
export function writeCsv(file, from, count) {
  const fd = fs.openSync(file, 'w');
  fs.writeSync(fd, 'time,part_id,temp_c,pressure_bar,speed_rpm,torque_nm,counter,status\n');
  const start = Date.UTC(2026, 0, 1);
  let buffer = '';
  for (let i = from; i < from + count; i += 1) {
    const t = new Date(start + i * 1000).toISOString();
    buffer += `${t.slice(0, 10)} ${t.slice(11, 19)},P${i},${(180 + (i % 97) * 0.1).toFixed(2)},${(6 + (i % 13) * 0.01).toFixed(3)},${1400 + (i % 50)},${(52.5 + (i % 7) * 0.25).toFixed(2)},${i},${i % 31 === 0 ? 'warn' : 'ok'}\n`;
    if (buffer.length > 1 << 20) {
      fs.writeSync(fd, buffer);
      buffer = '';
    }
  }
  fs.writeSync(fd, buffer);
  fs.closeSync(fd);
}

// `node bench/csv-data.mjs <file> <from> <count>`: the bench writes its files in a child process, so
// that the garbage of building them does not weigh on the bench process (ingest server) during a run.
if (import.meta.url === `file://${process.argv[1]}`) writeCsv(process.argv[2], Number(process.argv[3]), Number(process.argv[4]));
