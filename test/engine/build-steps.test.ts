// The classic builder's output read for the images its steps left and the container one runs in:
// the lines as the engine sends them (measured on Docker 20.10, API 1.41).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { watchSteps } from '@berth/shared/adapters/docker/build-steps';
import { TEST_IMAGE, engine, uniqueName } from '../support/engine.ts';

const OUTPUT = [
  'Step 1/6 : FROM berth-test/httpd:current AS base', ' ---> e11420935d83',
  'Step 2/6 : COPY a.txt /a.txt', ' ---> Using cache', ' ---> 08a8b69d50ca',
  'Step 3/6 : RUN echo x > /n', ' ---> Running in 2115694b207d', 'Removing intermediate container 2115694b207d', ' ---> 511c5c1ce7be',
  'Step 4/6 : from base', ' ---> 511c5c1ce7be',
  'Step 5/6 : ENV X=1', ' ---> Running in 1d5321afa06b', 'Removing intermediate container 1d5321afa06b', ' ---> 76a897f8479c',
  'Step 6/6 : RUN sleep 30', ' ---> Running in 560f91c295a1',
];

test('the step images are told on, a cache hit\'s too, but never a FROM\'s, and every line is passed on', () => {
  const lines: string[] = [];
  const images: string[] = [];
  const watch = watchSteps((line) => lines.push(line), (id) => images.push(id));
  OUTPUT.forEach(watch.onLine);
  assert.deepEqual(images, ['08a8b69d50ca', '511c5c1ce7be', '76a897f8479c']);
  assert.deepEqual(lines, OUTPUT);
});

test('the container of the step running now is known until the builder removes it', () => {
  const watch = watchSteps(() => {});
  const seen = OUTPUT.map((line) => { watch.onLine(line); return watch.running(); });
  assert.equal(seen[OUTPUT.indexOf(' ---> Running in 2115694b207d')], '2115694b207d');
  assert.equal(seen[OUTPUT.indexOf('Removing intermediate container 2115694b207d')], null);
  assert.equal(watch.running(), '560f91c295a1');
});

test('an image with a tag, one another is built on or one a container uses is not removed as unused; an untagged leaf is', async () => {
  const docker = (args: string[], input?: string) => execFileSync('docker', args, { encoding: 'utf8', input, env: { ...process.env, DOCKER_BUILDKIT: '0' } }).trim();
  const build = (text: string, ...args: string[]) => docker(['build', '-q', ...args, '-'], text).replace('sha256:', '');
  const mark = randomBytes(6).toString('hex');
  const tag = `${uniqueName('berth-test-unused')}:1`;
  const tagged = build(`FROM ${TEST_IMAGE}\nRUN echo ${mark} > /t\n`, '-t', tag);
  // Two steps of the classic builder, untagged: the first one's image is the parent of the last.
  const leaf = build(`FROM ${TEST_IMAGE}\nRUN echo ${mark} > /a\nRUN echo ${mark} > /b\n`);
  const parent = docker(['image', 'inspect', '-f', '{{.Parent}}', leaf]).replace('sha256:', '');
  const user = uniqueName('berth-test-user');
  try {
    assert.equal(await engine.removeUnusedImage(tagged), false);
    assert.equal(await engine.imageExists(tag), true, 'the tagged image stays');
    assert.equal(await engine.removeUnusedImage(parent), false);
    assert.equal(await engine.imageExists(parent), true, 'the image built on stays');
    docker(['create', '--name', user, leaf]);
    assert.equal(await engine.removeUnusedImage(leaf), false, 'a container uses it');
    docker(['rm', user]);
    assert.equal(await engine.removeUnusedImage(leaf), true, 'untagged, nothing built on it');
    assert.equal(await engine.removeUnusedImage(leaf), false, 'gone');
    assert.equal(await engine.imageExists(parent), true, 'its parent stays');
    assert.equal(await engine.removeUnusedImage(parent), true);
  } finally {
    try { docker(['rm', '-f', user]); } catch { /* removed by the test already */ }
    for (const id of [tag, leaf, parent]) await engine.removeImage(id).catch(() => {});
  }
});
