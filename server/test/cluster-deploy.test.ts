/**
 * The deployment files: the Kubernetes manifests parse and name exactly settings the server
 * reads; the Dockerfile has what the issue asks for (docker cannot run here, so it is not built).
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AUTH_ENV } from '../src/auth/config.ts';
import { configFromEnv, SERVER_ENV_NAMES, TEST_ONLY_ENV_NAMES } from '../src/config.ts';
import type { Json } from './helpers/api-client.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const manifestsDir = path.join(repoRoot, 'deploy', 'kubernetes');

// js-yaml is installed (a dependency of the lint tooling) but ships no type declarations.
const YAML_MODULE = 'js-yaml';
async function parseYaml(text: string): Promise<Json[]> {
  const yaml = (await import(YAML_MODULE)) as { loadAll(text: string): unknown[] };
  return yaml.loadAll(text).filter(Boolean) as Json[];
}

async function manifests(): Promise<Json[]> {
  const files = (await readdir(manifestsDir)).filter((name) => name.endsWith('.yaml'));
  const documents: Json[] = [];
  for (const file of files) {
    for (const document of await parseYaml(await readFile(path.join(manifestsDir, file), 'utf8')))
      documents.push({ ...document, file });
  }
  return documents;
}

const byKind = (documents: Json[], kind: string): Json[] =>
  documents.filter((document) => document.kind === kind);

describe('server settings', () => {
  it('SERVER_ENV_NAMES lists exactly the variables config.ts and auth/config.ts read', async () => {
    const source = await readFile(path.join(repoRoot, 'server/src/config.ts'), 'utf8');
    const read = new Set([...source.matchAll(/\benv\.([A-Z][A-Z0-9_]*)/g)].map((m) => m[1]));
    for (const name of Object.values(AUTH_ENV)) read.add(name);
    expect([...SERVER_ENV_NAMES].sort()).toEqual([...read].sort());
  });

  it('reads IVORY_PACHD_ADDRESS (cluster mode) and rejects a non-http address', () => {
    expect(configFromEnv({}).pachdAddress).toBeUndefined();
    expect(configFromEnv({ IVORY_PACHD_ADDRESS: ' http://pachd:1650/ ' }).pachdAddress).toBe(
      'http://pachd:1650',
    );
    expect(() => configFromEnv({ IVORY_PACHD_ADDRESS: 'grpc://pachd:1650' })).toThrow(
      /IVORY_PACHD_ADDRESS/,
    );
  });
});

describe('Kubernetes manifests', () => {
  it('parse, with the expected kinds', async () => {
    const documents = await manifests();
    const kinds = documents.map((document) => document.kind).sort();
    expect(kinds).toEqual(
      [
        'ConfigMap',
        'Deployment',
        'Ingress',
        'Kustomization',
        'PersistentVolumeClaim',
        'Secret',
        'Service',
      ].sort(),
    );
    for (const document of documents) expect(document.apiVersion, document.file).toBeTruthy();
  });

  it('name only settings the server reads, the client secret only in the Secret', async () => {
    const documents = await manifests();
    const [configMap] = byKind(documents, 'ConfigMap');
    const [secret] = byKind(documents, 'Secret');
    const [deployment] = byKind(documents, 'Deployment');
    const container = deployment.spec.template.spec.containers[0];
    const configNames = Object.keys(configMap.data);
    const secretNames = Object.keys(secret.stringData ?? secret.data);
    const deploymentNames = (container.env ?? []).map((entry: Json) => entry.name as string);
    const all = [...configNames, ...secretNames, ...deploymentNames];

    const known = new Set<string>(SERVER_ENV_NAMES);
    for (const name of all) expect(known.has(name), `${name} is not read by the server`).toBe(true);
    for (const name of TEST_ONLY_ENV_NAMES) expect(all).not.toContain(name);
    expect(new Set(all).size).toBe(all.length);

    expect(secretNames).toEqual([AUTH_ENV.clientSecret]);
    expect(configNames).not.toContain(AUTH_ENV.clientSecret);
    expect(configNames).toEqual(
      expect.arrayContaining([
        'IVORY_PACHD_ADDRESS',
        AUTH_ENV.issuer,
        AUTH_ENV.clientId,
        AUTH_ENV.pachdClientId,
        AUTH_ENV.publicUrl,
      ]),
    );
    expect(deploymentNames).toEqual(expect.arrayContaining(['HOST', 'PORT', 'IVORY_DATA_DIR']));
    // The settings as the server would read them: a consistent configuration.
    const env = Object.fromEntries(
      [
        ...Object.entries(configMap.data),
        ...Object.entries(secret.stringData),
        ...(container.env as Json[]).map((entry) => [entry.name, entry.value]),
      ].map(([key, value]) => [key, String(value)]),
    );
    const config = configFromEnv(env);
    expect(config.host).toBe('0.0.0.0');
    expect(config.port).toBe(4000);
    expect(config.dataDir).toBe('/data');
    expect(config.pachdAddress).toMatch(/^http:\/\/pachd/);
    expect(config.auth.clientSecret).toBe('change-me');
  });

  it('wire the Deployment to its ConfigMap, Secret, volume, Service and Ingress', async () => {
    const documents = await manifests();
    const [deployment] = byKind(documents, 'Deployment');
    const [service] = byKind(documents, 'Service');
    const [ingress] = byKind(documents, 'Ingress');
    const [claim] = byKind(documents, 'PersistentVolumeClaim');
    const pod = deployment.spec.template.spec;
    const container = pod.containers[0];

    const sources = container.envFrom.map((source: Json) =>
      source.configMapRef ? `cm:${source.configMapRef.name}` : `secret:${source.secretRef.name}`,
    );
    expect(sources).toEqual([
      `cm:${byKind(documents, 'ConfigMap')[0].metadata.name}`,
      `secret:${byKind(documents, 'Secret')[0].metadata.name}`,
    ]);
    const volume = pod.volumes.find((entry: Json) => entry.persistentVolumeClaim);
    expect(volume.persistentVolumeClaim.claimName).toBe(claim.metadata.name);
    const mount = container.volumeMounts.find((entry: Json) => entry.name === volume.name);
    expect(mount.mountPath).toBe('/data');

    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(container.ports[0].containerPort).toBe(4000);
    expect(container.readinessProbe.httpGet.path).toBe('/healthz');
    expect(container.livenessProbe.httpGet.path).toBe('/healthz');
    expect(deployment.spec.selector.matchLabels).toEqual(service.spec.selector);
    expect(deployment.spec.template.metadata.labels).toMatchObject(service.spec.selector);
    expect(service.spec.ports[0].targetPort).toBe(container.ports[0].name);
    const backend = ingress.spec.rules[0].http.paths[0].backend.service;
    expect(backend.name).toBe(service.metadata.name);
    expect(backend.port.name).toBe(service.spec.ports[0].name);

    const [kustomization] = byKind(documents, 'Kustomization');
    const files = new Set(documents.map((document) => document.file));
    files.delete('kustomization.yaml');
    expect([...kustomization.resources].sort()).toEqual([...files].sort());
  });
});

describe('Dockerfile', () => {
  it('builds in stages and runs the server as node on 0.0.0.0:4000 with a health check', async () => {
    const dockerfile = await readFile(path.join(repoRoot, 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/^FROM node:20-bookworm AS build$/m);
    expect(dockerfile).toMatch(/RUN npm ci\b/);
    expect(dockerfile).toMatch(/RUN npm run build/);
    expect(dockerfile).toMatch(/^FROM node:20-bookworm-slim AS runtime$/m);
    expect(dockerfile).toMatch(/npm ci --omit=dev/);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^EXPOSE 4000$/m);
    expect(dockerfile).toMatch(/HOST=0\.0\.0\.0/);
    expect(dockerfile).toMatch(/^HEALTHCHECK .*\n?.*\/healthz/m);
    expect(dockerfile).toMatch(/^VOLUME \["\/data"\]$/m);
    expect(dockerfile).toMatch(/CMD \["node", "--import", "tsx", "server\/src\/main\.ts"\]/);
    const ignore = await readFile(path.join(repoRoot, '.dockerignore'), 'utf8');
    expect(ignore).toMatch(/node_modules/);
    expect(ignore).toMatch(/\.ivory-data/);
  });
});
