import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { imagesOf } from './containerfile-images.ts';

describe('the images a containerfile builds on', () => {
  it('are its FROM, COPY --from and RUN --mount from= references, and its syntax frontend', () => {
    const file = [
      '# syntax=docker/dockerfile:1',
      'FROM --platform=linux/amd64 node:22 AS build',
      'COPY --from=berth/other:deploy-1 /a /b',
      'run --mount=type=bind,from=tools:1,target=/t make',
      'RUN --mount="type=cache,from=cache:2,target=/c" make',
      'FROM alpine',
    ].join('\n');
    assert.deepEqual(imagesOf(file), { images: ['docker/dockerfile:1', 'node:22', 'berth/other:deploy-1', 'tools:1', 'cache:2', 'alpine'], unresolved: [] });
  });

  it('leave out earlier stages, by name in any case or by index, and scratch', () => {
    const file = 'FROM alpine AS Base\nFROM base\nCOPY --from=BASE /a /a\nCOPY --from=1 /a /b\nFROM scratch\nCOPY --from=0 /x /x\n';
    assert.deepEqual(imagesOf(file).images, ['alpine']);
  });

  it('count a stage name used before its stage as an image, as the builder does', () => {
    assert.deepEqual(imagesOf('FROM alpine\nCOPY --from=later /a /a\nFROM alpine AS later\n').images, ['alpine', 'later', 'alpine']);
  });

  it('resolve ARGs with their defaults, globals in FROM and a stage\'s own in its steps', () => {
    const file = 'ARG REPO=berth\nARG IMAGE=${REPO}/other:1\nFROM $IMAGE\nARG IMAGE\nARG TOOLS=tools:2\nCOPY --from=${TOOLS} /a /a\nCOPY --from=$IMAGE /b /b\n';
    assert.deepEqual(imagesOf(file), { images: ['berth/other:1', 'tools:2', 'berth/other:1'], unresolved: [] });
  });

  it('report references they cannot resolve: an ARG without a default, a global the stage did not bring in, an ENV, a modifier', () => {
    const file = 'ARG BASE\nARG OTHER=x\nFROM ${BASE}\nCOPY --from=$OTHER /a /a\nENV E=berth/x\nCOPY --from=$E /a /a\nFROM ${MISSING:-berth/x}\n';
    assert.deepEqual(imagesOf(file), { images: [], unresolved: ['${BASE}', '$OTHER', '$E', '${MISSING:-berth/x}'] });
  });

  it('read an instruction across continuation lines, comments and blank lines, with the escape directive', () => {
    assert.deepEqual(imagesOf('FROM alpine\nCOPY \\\n# a comment\n\n  --from=berth/x:1 /a /b\n').images, ['alpine', 'berth/x:1']);
    assert.deepEqual(imagesOf('# escape=`\nFROM alpine\nCOPY `\n  --from=berth/y:1 /a /b\n').images, ['alpine', 'berth/y:1']);
  });

  it('read ONBUILD\'s instruction, which runs in the builds of the images made from this one', () => {
    assert.deepEqual(imagesOf('FROM alpine\nONBUILD COPY --from=berth/z:1 /a /b\n').images, ['alpine', 'berth/z:1']);
  });

  it('take no flag from a step\'s command', () => {
    assert.deepEqual(imagesOf('FROM alpine\nRUN tool --from=$X --mount=from=berth/q\nCOPY ./--from=y /a\n'), { images: ['alpine'], unresolved: [] });
  });
});
