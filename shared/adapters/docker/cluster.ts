// The swarm's nodes and how another node joins it.
import type Docker from 'dockerode';
import type { JoinInfo, NodeInfo } from '../../ports/container-engine.ts';
import { answered, engineError } from './progress.ts';
import { pathName } from './names.ts';

type RawNode = {
  ID: string; Version: { Index: number };
  Spec: { Role: 'worker' | 'manager'; Availability: string; Labels?: Record<string, string> };
  Description?: { Hostname?: string; Engine?: { EngineVersion?: string } };
  Status?: { State?: string; Addr?: string };
  ManagerStatus?: { Leader?: boolean; Addr?: string };
};

export async function listNodes(docker: Docker): Promise<NodeInfo[]> {
  try {
    const nodes = await answered((abortSignal) => docker.listNodes({ abortSignal })) as RawNode[];
    return nodes.map((node) => ({
      id: node.ID,
      hostname: node.Description?.Hostname ?? '',
      role: node.Spec.Role,
      availability: node.Spec.Availability,
      state: node.Status?.State ?? 'unknown',
      address: node.Status?.Addr ?? '',
      leader: node.ManagerStatus?.Leader ?? false,
      engineVersion: node.Description?.Engine?.EngineVersion ?? '',
    }));
  } catch (error) {
    throw engineError(error);
  }
}

export async function joinInfo(docker: Docker): Promise<JoinInfo> {
  try {
    // The typings of these two take no options (so no abort signal): bounded all the same.
    const swarm = await answered(() => docker.swarmInspect()) as { JoinTokens: { Worker: string; Manager: string } };
    const info = await answered(() => docker.info()) as { Swarm?: { RemoteManagers?: Array<{ Addr: string }> | null } };
    const manager = info.Swarm?.RemoteManagers?.[0]?.Addr;
    if (!manager) throw engineError({ message: 'this engine knows no swarm manager' });
    return { workerToken: swarm.JoinTokens.Worker, managerToken: swarm.JoinTokens.Manager, managerAddress: manager };
  } catch (error) {
    throw engineError(error);
  }
}

export async function drainNode(docker: Docker, nodeId: string): Promise<void> {
  try {
    const node = docker.getNode(pathName('node', nodeId));
    const current = await answered((abortSignal) => node.inspect({ abortSignal })) as RawNode;
    await answered((abortSignal) => node.update({ version: current.Version.Index, ...current.Spec, Availability: 'drain', abortSignal }));
  } catch (error) {
    throw engineError(error);
  }
}

export async function removeNode(docker: Docker, nodeId: string): Promise<void> {
  try {
    // A drained node that is still up can only leave by force; its tasks already moved away.
    await answered((abortSignal) => docker.getNode(pathName('node', nodeId)).remove({ force: true, abortSignal }));
  } catch (error) {
    throw engineError(error);
  }
}
