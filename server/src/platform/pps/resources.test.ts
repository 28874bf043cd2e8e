import { describe, expect, it } from 'vitest';
import { datumLimits, parseLimitSet, parseQuantity } from './resources.ts';

describe('parseQuantity', () => {
  it('reads Kubernetes quantities', () => {
    expect(parseQuantity('512Mi', 'x')).toBe(512 * 2 ** 20);
    expect(parseQuantity('2G', 'x')).toBe(2e9);
    expect(parseQuantity('1.5', 'x')).toBe(1.5);
    expect(parseQuantity('500m', 'x')).toBe(0.5);
    expect(parseQuantity('129e6', 'x')).toBe(129e6);
    for (const bad of ['', 'lots', '5Xi', '-1', '1 Gi B'])
      expect(() => parseQuantity(bad, 'resourceLimits.memory')).toThrow(/resourceLimits.memory/);
  });
});

describe('datumLimits', () => {
  const env = {
    IVORY_DATUM_LIMITS: 'memory=1Gi,pids=100',
    IVORY_DATUM_LIMITS_MAX: 'memory=4Gi,cpu=2',
  };

  it('takes the spec’s limits over the server’s defaults', () => {
    const limits = datumLimits({ memory: '256Mi', cpu: 0.5 }, { cpu: 0.25 }, { env });
    expect(limits).toMatchObject({
      memoryBytes: 256 * 2 ** 20,
      cpu: 0.5,
      pids: 100,
      cpuRequest: 0.25,
    });
    expect(datumLimits(undefined, undefined, { env }).memoryBytes).toBe(2 ** 30);
  });

  it('refuses a limit over the maximum, or clamps it for a stored spec', () => {
    expect(() => datumLimits({ memory: '8Gi' }, undefined, { env })).toThrow(
      /resourceLimits.memory 8 GiB is over the server's maximum 4 GiB \(IVORY_DATUM_LIMITS_MAX\)/,
    );
    expect(datumLimits({ memory: '8Gi' }, undefined, { env, clamp: true }).memoryBytes).toBe(
      4 * 2 ** 30,
    );
    expect(() => datumLimits({ cpu: 1 }, { cpu: 2 }, { env })).toThrow(/resourceRequests.cpu/);
  });

  it('checks the settings', () => {
    expect(parseLimitSet('memory=2Gi, cpu=1.5 ,disk=0', 'S')).toEqual({
      memory: 2 ** 31,
      cpu: 1.5,
      disk: 0,
    });
    expect(() => parseLimitSet('gpu=1', 'S')).toThrow(/S: "gpu" is not memory, cpu, pids or disk/);
  });
});
