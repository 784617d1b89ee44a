// Networks of the local engine, found by a label (what a compose project's tool created).
import type Docker from 'dockerode';
import { foundBy, fromEngine } from './progress.ts';
import { pathName } from './names.ts';

export const listNetworks = async (docker: Docker, filter: { label: string }): Promise<string[]> =>
  (await fromEngine((abortSignal) => docker.listNetworks({ filters: { label: [filter.label] }, abortSignal }))).map((network) => network.Name);

export const removeNetwork = (docker: Docker, name: string): Promise<boolean> =>
  foundBy(() => docker.getNetwork(pathName('network', name)).remove());
