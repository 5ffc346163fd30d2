import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCatalog } from '../../src/catalog/index.js';
import { startTestServer } from './support/fixture.js';
import { InstrumentedEngine, TestEngine } from './support/testEngine.js';

const SLOW = JSON.stringify({ query: '{ synthesize(question: "anything sleep:1200") { id tables { id } } }' });

function post(url: string, body: string) {
  return fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
}

describe('graceful shutdown', () => {
  it('lets an in-flight request finish, refuses new work, then closes the catalog', async () => {
    const db = await openCatalog({ dataDir: 'memory://' });
    const api = await startTestServer(db, new InstrumentedEngine(new TestEngine(db), db), { shutdownGraceMs: 5_000 });
    const slow = post(api.url, SLOW);
    await new Promise((r) => setTimeout(r, 300));
    expect(api.server.inFlight).toBe(1);
    const stopping = api.server.shutdown('test');
    // The listening socket is closed at once: a new connection is refused.
    const late = await fetch(`${api.url}/healthz`).then((r) => r.status).catch(() => 'refused');
    expect(late).toBe('refused');
    const res = await slow;
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { synthesize: { id: string } } };
    expect(body.data.synthesize.id).toMatch(/^[0-9a-f-]{36}$/);
    await stopping;
    expect(api.server.inFlight).toBe(0);
    // closeDatabase was not asked for: the catalog is still usable, then closed here.
    await expect(db.sql.query('SELECT 1')).resolves.toBeDefined();
    await db.close();
  });

  it('counts a request whose client went away until its handler ends, so shutdown waits for its engine work', async () => {
    const db = await openCatalog({ dataDir: 'memory://' });
    const api = await startTestServer(db, new InstrumentedEngine(new TestEngine(db), db), { shutdownGraceMs: 5_000 });
    const client = new AbortController();
    const gone = fetch(`${api.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: SLOW, signal: client.signal }).catch(() => 'aborted');
    await new Promise((r) => setTimeout(r, 300));
    client.abort();
    expect(await gone).toBe('aborted');
    await new Promise((r) => setTimeout(r, 100));
    // The socket is closed, the engine call (sleep:1200) is still running: still in flight.
    expect(api.server.inFlight).toBe(1);
    await api.server.shutdown('test');
    expect(api.server.inFlight).toBe(0);
    await db.close();
  });

  it('bounds the wait: a request longer than the grace period is cut off and the catalog closed', async () => {
    const db = await openCatalog({ dataDir: 'memory://' });
    const { createServer } = await import('../../src/api/index.js');
    const { HashedNgramEmbedder } = await import('../../src/embed/index.js');
    const { silentLogger } = await import('./support/fixture.js');
    const server = await createServer({
      db,
      engine: new InstrumentedEngine(new TestEngine(db), db),
      embedder: new HashedNgramEmbedder(),
      logger: silentLogger(),
      closeDatabase: true,
      config: { shutdownGraceMs: 300, engineTimeoutMs: 60_000 },
    });
    const { url } = await server.listen({ port: 0 });
    const stuck = post(url, JSON.stringify({ query: '{ synthesize(question: "x sleep:20000") { id } }' })).then(
      (r) => r.status,
      () => 'cut',
    );
    await new Promise((r) => setTimeout(r, 200));
    const t0 = Date.now();
    await server.shutdown('test');
    expect(Date.now() - t0).toBeLessThan(3_000);
    expect(await stuck).toBe('cut');
    await expect(db.sql.query('SELECT 1')).rejects.toThrow();
  });

  it('on SIGTERM a real process finishes the in-flight request and exits 0', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.resolve('test/api/support/serveChild.ts')], {
      env: { ...process.env, GRAFT_LOG_LEVEL: 'info', NODE_ENV: 'development' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /\{"ready":"([^"]+)"\}/.exec(out);
        if (m) resolve(m[1]);
      });
      child.on('exit', (code) => reject(new Error(`child exited ${code} before listening: ${err}`)));
    });
    const slow = post(url, SLOW);
    await new Promise((r) => setTimeout(r, 300));
    child.kill('SIGTERM');
    const res = await slow;
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { synthesize: { id: string } } }).data.synthesize.id).toBeTruthy();
    expect(await exited).toBe(0);
    const logs = out.split('\n').filter((l) => l.startsWith('{"level"')).map((l) => JSON.parse(l) as { msg: string; reason?: string });
    expect(logs.find((l) => l.msg === 'shutting down')?.reason).toBe('SIGTERM');
    expect(logs.some((l) => l.msg === 'stopped')).toBe(true);
  }, 120_000);
});
