// The ContainerEngine port on a local or remote engine socket, through dockerode.
import Docker from 'dockerode';
import type { ContainerEngine } from '../../ports/container-engine.ts';
import { engineAddress } from './address.ts';
import * as cluster from './cluster.ts';
import * as containers from './containers.ts';
import * as images from './images.ts';
import * as networks from './networks.ts';
import * as services from './services.ts';
import * as volumes from './volumes.ts';

/** A client of the engine at `socket`, in any form BERTH_ENGINE_SOCKET takes (engineAddress reads it). */
export const dockerClient = (socket = '/var/run/docker.sock'): Docker => new Docker(engineAddress(socket));

export function dockerEngine(docker: Docker = dockerClient()): ContainerEngine {
  return {
    inspectService: (name) => services.inspectService(docker, name),
    upsertService: (spec, auth) => services.upsertService(docker, spec, auth),
    updateService: (name, change) => services.updateService(docker, name, change),
    removeService: (name) => services.removeService(docker, name),
    listTasks: (name) => services.listTasks(docker, name),
    buildImage: (request) => images.buildImage(docker, request),
    pullImage: (reference, auth, onLine, signal) => images.pullImage(docker, reference, auth, onLine, signal),
    pushImage: (reference, auth, onLine, signal) => images.pushImage(docker, reference, auth, onLine, signal),
    tagImage: (source, target) => images.tagImage(docker, source, target),
    imageExists: (reference) => images.imageExists(docker, reference),
    imageTags: (name) => images.imageTags(docker, name),
    labelledImageTags: (label) => images.labelledImageTags(docker, label),
    removeImage: (reference) => images.removeImage(docker, reference),
    removeUnusedImage: (imageId, options) => images.removeUnusedImage(docker, imageId, options),
    imageLabels: (reference) => images.imageLabels(docker, reference),
    checkAuth: (auth) => images.checkAuth(docker, auth),
    listNodes: () => cluster.listNodes(docker),
    joinInfo: () => cluster.joinInfo(docker),
    drainNode: (nodeId) => cluster.drainNode(docker, nodeId),
    removeNode: (nodeId) => cluster.removeNode(docker, nodeId),
    listContainers: (filter) => containers.listContainers(docker, filter),
    inspectContainer: (containerId) => containers.inspectContainer(docker, containerId),
    containerStats: (containerId) => containers.containerStats(docker, containerId),
    stopContainer: (containerId) => containers.stopContainer(docker, containerId),
    removeContainer: (containerId) => containers.removeContainer(docker, containerId),
    volumeLabels: (name) => volumes.volumeLabels(docker, name),
    createVolume: (name, labels) => volumes.createVolume(docker, name, labels),
    removeVolume: (name) => volumes.removeVolume(docker, name),
    network: (name) => networks.network(docker, name),
    createOverlayNetwork: (name, labels) => networks.createOverlayNetwork(docker, name, labels),
    listNetworks: (filter) => networks.listNetworks(docker, filter),
    removeNetwork: (name) => networks.removeNetwork(docker, name),
  };
}
