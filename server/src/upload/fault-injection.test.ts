import { describe, expect, it } from 'vitest';
import { FaultInjector, parseFailChunk } from './fault-injection.ts';

describe('IVORY_FAULT_FAIL_CHUNK', () => {
  it('parses name:index, splitting at the last colon', () => {
    expect(parseFailChunk('big.bin:1')).toEqual({ fileName: 'big.bin', index: 1 });
    expect(parseFailChunk('a:b.bin:0')).toEqual({ fileName: 'a:b.bin', index: 0 });
    expect(parseFailChunk('')).toBeNull();
    expect(parseFailChunk('big.bin')).toBeNull();
    expect(parseFailChunk('big.bin:x')).toBeNull();
  });

  it('fails the armed chunk once, with an HTTP 500 error, and nothing else', () => {
    const faults = new FaultInjector('', 'big.bin:1');
    expect(() => faults.failChunkOnce('big.bin', 0)).not.toThrow();
    expect(() => faults.failChunkOnce('other.bin', 1)).not.toThrow();
    let thrown: unknown;
    try {
      faults.failChunkOnce('big.bin', 1);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({
      code: 13,
      message: 'injected fault: chunk 1 of big.bin failed',
    });
    expect((thrown as { httpStatus: number }).httpStatus).toBe(500);
    expect(() => faults.failChunkOnce('big.bin', 1)).not.toThrow();
  });

  it('is off by default', () => {
    const faults = new FaultInjector('', '');
    expect(() => faults.failChunkOnce('big.bin', 1)).not.toThrow();
  });
});
