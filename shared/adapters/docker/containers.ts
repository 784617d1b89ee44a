// Containers of the local engine: their configuration, their resource use, stopping and removing them.
import type Docker from 'dockerode';
import type { ContainerStats, ContainerSummary } from '../../ports/container-engine.ts';
import { answered, engineError, foundBy, isNotFound } from './progress.ts';
import { pathName } from './names.ts';

// The engine reads its `name` filter as an unanchored regular expression: escaped, it finds the
// names that contain the text as written (`.` no wildcard, `(` no refusal).
const literally = (text: string) => text.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&');

/** `name`: the containers whose name contains it. */
export async function listContainers(docker: Docker, filter: { label?: string; name?: string } = {}): Promise<ContainerSummary[]> {
  const filters: Record<string, string[]> = {};
  if (filter.label) filters.label = [filter.label];
  if (filter.name) filters.name = [literally(filter.name)];
  try {
    const containers = await answered((abortSignal) => docker.listContainers({ all: true, filters, abortSignal }));
    return containers.map((container) => ({
      containerId: container.Id,
      name: (container.Names[0] ?? '').replace(/^\//, ''),
      image: container.Image,
      state: container.State,
      status: container.Status,
      labels: container.Labels,
      ports: container.Ports.map((port) => port.PublicPort
        ? `${port.IP ?? ''}:${port.PublicPort}->${port.PrivatePort}/${port.Type}` : `${port.PrivatePort}/${port.Type}`).join(', '),
    }));
  } catch (error) {
    throw engineError(error);
  }
}

export async function inspectContainer(docker: Docker, containerId: string): Promise<object | null> {
  try {
    return await answered((abortSignal) => docker.getContainer(pathName('container', containerId)).inspect({ abortSignal }));
  } catch (error) {
    if (isNotFound(error)) return null;
    throw engineError(error);
  }
}

type RawStats = {
  cpu_stats: { cpu_usage: { total_usage: number; percpu_usage?: number[] }; system_cpu_usage?: number; online_cpus?: number };
  precpu_stats: { cpu_usage: { total_usage: number }; system_cpu_usage?: number };
  memory_stats: { usage?: number; limit?: number; stats?: { cache?: number; inactive_file?: number } };
  networks?: Record<string, { rx_bytes: number; tx_bytes: number }>;
  blkio_stats?: { io_service_bytes_recursive?: Array<{ op: string; value: number }> | null };
};

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/** One sample: CPU as a percentage of one core over the engine's last interval, like its CLI shows. */
export async function containerStats(docker: Docker, containerId: string): Promise<ContainerStats> {
  let raw: RawStats;
  try {
    // dockerode honours abortSignal here; its typings do not list it.
    raw = await answered((abortSignal) => docker.getContainer(pathName('container', containerId)).stats({ stream: false, abortSignal } as { stream: false })) as unknown as RawStats;
  } catch (error) {
    throw engineError(error);
  }
  const cpuDelta = raw.cpu_stats.cpu_usage.total_usage - raw.precpu_stats.cpu_usage.total_usage;
  const systemDelta = (raw.cpu_stats.system_cpu_usage ?? 0) - (raw.precpu_stats.system_cpu_usage ?? 0);
  const cpus = raw.cpu_stats.online_cpus ?? raw.cpu_stats.cpu_usage.percpu_usage?.length ?? 1;
  const networks = Object.values(raw.networks ?? {});
  const io = raw.blkio_stats?.io_service_bytes_recursive ?? [];
  const cache = raw.memory_stats.stats?.inactive_file ?? raw.memory_stats.stats?.cache ?? 0;
  return {
    cpuPercent: systemDelta > 0 && cpuDelta > 0 ? (cpuDelta / systemDelta) * cpus * 100 : 0,
    memoryUsedBytes: Math.max(0, (raw.memory_stats.usage ?? 0) - cache),
    memoryLimitBytes: raw.memory_stats.limit ?? 0,
    networkRxBytes: sum(networks.map((network) => network.rx_bytes)),
    networkTxBytes: sum(networks.map((network) => network.tx_bytes)),
    blockReadBytes: sum(io.filter((entry) => entry.op.toLowerCase() === 'read').map((entry) => entry.value)),
    blockWriteBytes: sum(io.filter((entry) => entry.op.toLowerCase() === 'write').map((entry) => entry.value)),
  };
}

/** The engine answers 304 to a stop of a container that is not running: stopped already, as asked. */
const isNotModified = (error: unknown) => (error as { statusCode?: number }).statusCode === 304;

export async function stopContainer(docker: Docker, containerId: string): Promise<boolean> {
  try {
    await docker.getContainer(pathName('container', containerId)).stop();
    return true;
  } catch (error) {
    if (isNotModified(error)) return true;
    if (isNotFound(error)) return false;
    throw engineError(error);
  }
}

/** Anonymous volumes stay too (`v: false`), as the compose tool's `down` without `-v` leaves them. */
export const removeContainer = (docker: Docker, containerId: string): Promise<boolean> =>
  foundBy(() => docker.getContainer(pathName('container', containerId)).remove({ force: true, v: false }));
