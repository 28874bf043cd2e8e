import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { isAdmittedRead, Permits } from './admission.ts';

const request = (method: string, url: string) => ({ method, url }) as FastifyRequest;

describe('admission control', () => {
  it('queues reads only: API reads and file downloads, not writes, sign-in or /healthz', () => {
    expect(isAdmittedRead(request('POST', '/api/pfs_v2.API/ListRepo'))).toBe(true);
    expect(isAdmittedRead(request('POST', '/api/pfs_v2.API/GetFile'))).toBe(true);
    expect(isAdmittedRead(request('GET', '/files/default/r/master/a.txt'))).toBe(true);
    expect(isAdmittedRead(request('POST', '/api/pfs_v2.API/ModifyFile'))).toBe(false);
    expect(isAdmittedRead(request('POST', '/api/pps_v2.API/CreatePipelineV2'))).toBe(false);
    expect(isAdmittedRead(request('POST', '/upload/finish'))).toBe(false);
    expect(isAdmittedRead(request('GET', '/healthz'))).toBe(false);
    expect(isAdmittedRead(request('POST', '/auth/exchange'))).toBe(false);
  });

  it('hands permits out in arrival order, and never more than it has', async () => {
    const permits = new Permits(2);
    expect(permits.acquire()).toBeUndefined();
    expect(permits.acquire()).toBeUndefined();
    const order: number[] = [];
    const waits = [1, 2, 3].map((n) => permits.acquire()!.then(() => order.push(n)));
    expect(permits.queued).toBe(3);
    permits.release();
    permits.release();
    await Promise.all(waits.slice(0, 2));
    expect(order).toEqual([1, 2]);
    permits.release();
    await waits[2];
    expect(order).toEqual([1, 2, 3]);
    // Back to two free permits, no more.
    permits.release();
    permits.release();
    permits.release();
    expect(permits.acquire()).toBeUndefined();
    expect(permits.acquire()).toBeUndefined();
    expect(permits.acquire()).toBeInstanceOf(Promise);
  });
});
