/** Time source, injected so that tests can control it. */
export interface Clock {
  /** Epoch microseconds, strictly increasing between calls. */
  nowMicros(): bigint;
}

/**
 * Wall-clock time with microsecond resolution from the monotonic timer, re-anchored when the wall
 * clock moves by more than a second (NTP step, manual change). Never returns the same value twice,
 * so log lines and markers keep their order when read back with `since`.
 */
export class SystemClock implements Clock {
  private anchorWall = BigInt(Date.now()) * 1000n;
  private anchorMono = process.hrtime.bigint();
  private last = 0n;

  nowMicros(): bigint {
    let now = this.anchorWall + (process.hrtime.bigint() - this.anchorMono) / 1000n;
    const wall = BigInt(Date.now()) * 1000n;
    if (now - wall > 1_000_000n || wall - now > 1_000_000n) {
      this.anchorWall = wall;
      this.anchorMono = process.hrtime.bigint();
      now = wall;
    }
    this.last = now > this.last ? now : this.last + 1n;
    return this.last;
  }
}
