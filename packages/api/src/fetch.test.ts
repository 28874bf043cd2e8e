import { describe, expect, it } from 'vitest';
import {
  GENERIC_FETCH_ERROR,
  createFetcher,
  fetchErrorMessage,
  fetchText,
  parseJsonOrText,
} from './fetch.ts';

describe('fetchErrorMessage', () => {
  it.each([
    ['the message field', JSON.stringify({ message: 'bad request' }), 'bad request'],
    [
      'the first errors[].detail',
      JSON.stringify({ errors: [{ detail: 'first' }, { detail: 'second' }] }),
      'first',
    ],
    ['plain text', 'teapot', 'teapot'],
    ['nothing useful', JSON.stringify({ foo: 1 }), GENERIC_FETCH_ERROR],
    ['an empty body', '', GENERIC_FETCH_ERROR],
  ])('shows %s', (_name, body, expected) => {
    expect(fetchErrorMessage(body)).toBe(expected);
  });
});

describe('parseJsonOrText', () => {
  it('parses JSON or returns text', () => {
    expect(parseJsonOrText('{"a":1}')).toEqual({ a: 1 });
    expect(parseJsonOrText('hello')).toBe('hello');
  });
});

describe('fetchText', () => {
  it('sends GET with credentials, cors, JSON content type and the bearer token', async () => {
    let seen: { url: string; init: RequestInit } | undefined;
    const text = await fetchText('/auth/config', {
      getToken: () => 'tok',
      fetch: async (url, init) => {
        seen = { url: String(url), init: init ?? {} };
        return new Response('{"ok":true}');
      },
    });
    expect(text).toBe('{"ok":true}');
    expect(seen?.init).toMatchObject({ method: 'GET', credentials: 'include', mode: 'cors' });
    expect(seen?.init.headers).toMatchObject({
      'Content-Type': 'application/json',
      Authorization: 'Bearer tok',
    });
  });

  it('throws the message of a failed response', async () => {
    const doFetch = async () => new Response('{"message":"no such thing"}', { status: 400 });
    await expect(fetchText('/x', { fetch: doFetch, getToken: () => null })).rejects.toThrow(
      'no such thing',
    );
  });

  it('adds a path prefix through createFetcher', async () => {
    const urls: string[] = [];
    const fetcher = createFetcher('/auth', {
      getToken: () => null,
      fetch: async (url) => {
        urls.push(String(url));
        return new Response('{"clientId":"c"}');
      },
    });
    await expect(fetcher.json('/config')).resolves.toEqual({ clientId: 'c' });
    expect(urls).toEqual(['/auth/config']);
  });
});
