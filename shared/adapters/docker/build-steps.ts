// What the classic builder's output says of its steps: the image each left (` ---> <id>`, after
// ` ---> Using cache` for a cache hit) and the container a step runs in. The builder keeps every
// step's image untagged; a failed build's stay on the engine unless its caller removes them.
import type Docker from 'dockerode';
import { pathName } from './names.ts';

export interface StepWatch {
  /** The build's own line handler, telling the step images on as well. */
  readonly onLine: (line: string) => void;
  /** The container of the step running now, between its ` ---> Running in` and its removal. */
  readonly running: () => string | null;
}

const STEP = /^Step \d+\/\d+ : (\S+)/;
const STEP_IMAGE = /^\s*---> ([0-9a-f]{12,64})$/;
const RUNNING_IN = /^\s*---> Running in ([0-9a-f]{12,64})$/;
const REMOVED = /^Removing intermediate container ([0-9a-f]{12,64})$/;

export function watchSteps(onLine: (line: string) => void, onStepImage: (imageId: string) => void = () => {}): StepWatch {
  let from = false;
  let running: string | null = null;
  return {
    onLine: (line) => {
      const step = STEP.exec(line);
      if (step) from = step[1]!.toUpperCase() === 'FROM';
      running = RUNNING_IN.exec(line)?.[1] ?? (REMOVED.exec(line)?.[1] === running ? null : running);
      const image = STEP_IMAGE.exec(line)?.[1];
      // A FROM's image is the base (or an earlier stage's, reported already): never the build's to remove.
      if (image && !from) onStepImage(image);
      onLine(line);
    },
    running: () => running,
  };
}

/** How long a cancelled build waits for the engine to remove its step's container (measured: under a second). */
export const STEP_CONTAINER_WAIT_MS = 5_000;

/**
 * Waits until the engine removed the container (the builder's `forcerm` does, once the cancelled
 * request is gone): until then it holds the image of the step before, which could not be removed.
 * Bounded: an engine that keeps it (or does not answer) leaves the image, as a refused removal would.
 */
export async function containerGone(docker: Docker, containerId: string, waitMs = STEP_CONTAINER_WAIT_MS): Promise<void> {
  const deadline = Date.now() + waitMs;
  const container = docker.getContainer(pathName('container', containerId));
  while (Date.now() < deadline) {
    try {
      // Each ask bounded by what is left of the wait: a cancel on a stalled engine must not wait longer.
      await container.inspect({ abortSignal: AbortSignal.timeout(Math.max(1, deadline - Date.now())) });
    } catch {
      return; // gone (404), or no answer in time: the removal after this says so, or leaves the image
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
