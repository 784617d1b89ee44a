// The request metrics as a Prometheus server reads them: cumulative buckets, one series per label
// set, commands counted by outcome whatever the status, and label values that cannot break a line.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RequestMetrics } from '@berth/command-api/observability/request-metrics';

const SAMPLE = /^([a-z_]+)\{((?:[a-z]+="(?:[^"\\\n]|\\.)*",?)+)\} (\S+)$/;

/** Every sample line as [name, labels, value]; fails on a line that is neither a sample nor a comment. */
function samples(text: string): Array<[string, string, number]> {
  assert.ok(text.endsWith('\n'));
  return text.split('\n').filter((line) => line !== '' && !line.startsWith('#')).map((line) => {
    const match = SAMPLE.exec(line);
    assert.ok(match, `not a sample line: ${line}`);
    return [match[1]!, match[2]!, Number(match[3])];
  });
}

const value = (text: string, name: string, ...labels: string[]) => {
  const found = samples(text).filter(([sampled, set]) => sampled === name && labels.every((label) => set.split(',').includes(label)));
  assert.equal(found.length, 1, `${name} ${labels.join(',')}: ${found.length} series`);
  return found[0]![2];
};

describe('request metrics', () => {
  it('counts a request in its bucket and every bucket above it, and in the sum and count', () => {
    const metrics = new RequestMetrics();
    metrics.of('/api/project.one', 'GET', 200).observe(0.003);
    metrics.of('/api/project.one', 'GET', 200).observe(7);
    const text = metrics.render();
    const one = ['operation="project.one"', 'status="200"'];
    assert.equal(value(text, 'berth_request_duration_seconds_bucket', 'le="0.0025"', ...one), 0);
    assert.equal(value(text, 'berth_request_duration_seconds_bucket', 'le="0.005"', ...one), 1);
    assert.equal(value(text, 'berth_request_duration_seconds_bucket', 'le="5"', ...one), 1);
    assert.equal(value(text, 'berth_request_duration_seconds_bucket', 'le="+Inf"', ...one), 2);
    assert.equal(value(text, 'berth_request_duration_seconds_count', ...one), 2);
    assert.equal(value(text, 'berth_request_duration_seconds_sum', ...one), 7.003);
  });

  it('counts a command once per outcome, adding up the statuses that share it, and counts no query', () => {
    const metrics = new RequestMetrics();
    metrics.of('/api/project.create', 'POST', 200).observe(0.001);
    metrics.of('/api/project.create', 'POST', 400).observe(0.001);
    metrics.of('/api/project.create', 'POST', 404).observe(0.001);
    metrics.of('/api/project.create', 'POST', 404).observe(0.001);
    metrics.of('/api/project.all', 'GET', 200).observe(0.001);
    const text = metrics.render();
    assert.equal(value(text, 'berth_commands_total', 'operation="project.create"', 'outcome="ok"'), 1);
    assert.equal(value(text, 'berth_commands_total', 'operation="project.create"', 'outcome="rejected"'), 3);
    assert.equal(samples(text).filter(([name, labels]) => name === 'berth_commands_total' && labels.includes('project.all')).length, 0);
    assert.equal(value(text, 'berth_request_duration_seconds_count', 'operation="project.create"', 'status="404"'), 2);
  });

  it('names a route outside the API by its path, and escapes what would end a label value', () => {
    const metrics = new RequestMetrics();
    metrics.of('/health', 'GET', 200).observe(0.001);
    metrics.of('/odd"route\\', 'GET', 404).observe(0.001);
    const text = metrics.render();
    assert.equal(value(text, 'berth_request_duration_seconds_count', 'operation="health"'), 1);
    assert.equal(value(text, 'berth_request_duration_seconds_count', 'operation="odd\\"route\\\\"'), 1);
  });
});
