import { describe, expect, it } from 'vitest';
import { actionGate } from './session-queries.js';

const operator = { name: 'shift-a', role: 'operator' as const };

describe('whether an action button can be used', () => {
  it('is usable when the role allows it and the agent answers', () => {
    expect(actionGate(operator, 'operator', true)).toEqual({ allowed: true, disabled: false, title: undefined });
  });

  it('is disabled while the agent does not answer, saying why, though the role allows it', () => {
    const gate = actionGate(operator, 'operator', false);
    expect(gate.disabled).toBe(true);
    expect(gate.allowed).toBe(true);
    expect(gate.title).toMatch(/does not answer/);
  });

  it('names the role that may when the token’s role may not, reachable or not', () => {
    for (const reachable of [true, false]) {
      const gate = actionGate(operator, 'admin', reachable);
      expect(gate).toMatchObject({ allowed: false, disabled: true });
      expect(gate.title).toBe('Only an admin may do this; your token "shift-a" is operator.');
    }
  });

  it('does not hold a button back while the session is still unknown', () => {
    expect(actionGate(undefined, 'admin', true).disabled).toBe(false);
  });
});
