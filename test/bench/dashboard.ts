// The dashboard's figures: `project.all` over 200 projects, first empty, then holding 1,000
// services in all (two applications, a compose service and two databases each).
import type autocannon from 'autocannon';
import { prepare, run, runMeasured, startServer } from './kit.ts';

interface Row { figure: string; value: string; target: string; met: string; ratio: string }

const PROJECTS = 200;
const fmt = (value: number, digits = 0) => value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const ratio = (value: number, ceiling: number) => (Number.isNaN(ceiling) ? '' : `${fmt((100 * value) / ceiling, 1)} %`);
const met = (ok: boolean) => (ok ? 'yes' : 'NO');

const cpuRow = (figure: string, micros: number, ceilingCpu: number): Row => ({
  figure: `${figure} server CPU µs per request`, value: fmt(micros), target: '', met: '',
  ratio: Number.isNaN(ceilingCpu) ? '' : `${fmt((100 * ceilingCpu) / micros, 1)} % by CPU`,
});

async function post(url: string, token: string, operation: string, body: unknown): Promise<void> {
  const response = await fetch(`${url}/api/${operation}`, {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${operation} answered ${response.status}: ${await response.text()}`);
}

/** Five services in each project: 1,000 in all for 200 projects. */
async function addServices(url: string, token: string, projectIds: readonly string[]): Promise<void> {
  for (const projectId of projectIds) {
    await Promise.all([
      post(url, token, 'application.create', { name: 'web', projectId }),
      post(url, token, 'application.create', { name: 'worker', projectId }),
      post(url, token, 'compose.create', { name: 'stack', projectId }),
      post(url, token, 'dbgamma.create', { name: 'db', appName: 'db', projectId, databaseName: 'app', databaseUser: 'app', databasePassword: '' }),
      post(url, token, 'dbepsilon.create', { name: 'cache', appName: 'cache', projectId, databasePassword: '' }),
    ]);
  }
}

export async function benchDashboard(ceiling: number, ceilingCpu: number): Promise<Row[]> {
  console.log(`- dashboard: project.all over ${PROJECTS} projects, then with 1,000 services`);
  const server = await startServer('berth');
  const { token, projectIds } = await prepare(server, PROJECTS);
  const all: autocannon.Request[] = [{ method: 'GET', path: '/api/project.all', headers: { authorization: `Bearer ${token}` } }];
  const measure = async () => {
    await run(server.url, all, 2);
    return runMeasured(server, all);
  };
  const empty = await measure();
  await addServices(server.url, token, projectIds);
  const full = await measure();
  await server.stop();
  return [
    { figure: `project.all req/s (${PROJECTS} projects)`, value: fmt(empty.requests.average), target: '≥ 3,000', met: met(empty.requests.average >= 3000), ratio: ratio(empty.requests.average, ceiling) },
    { figure: 'project.all p50 / p99 ms', value: `${empty.latency.p50} / ${empty.latency.p99}`, target: 'p99 ≤ 50', met: met(empty.latency.p99 <= 50), ratio: '' },
    { figure: 'project.all req/s (1,000 services)', value: fmt(full.requests.average), target: '≥ 1,000', met: met(full.requests.average >= 1000), ratio: ratio(full.requests.average, ceiling) },
    { figure: 'project.all (1,000 services) p50 / p99 ms', value: `${full.latency.p50} / ${full.latency.p99}`, target: '', met: '', ratio: '' },
    cpuRow('project.all (200 projects)', empty.cpuMicros, ceilingCpu),
    cpuRow('project.all (1,000 services)', full.cpuMicros, ceilingCpu),
  ];
}
