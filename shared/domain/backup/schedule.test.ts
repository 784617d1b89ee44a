// How a schedule is read, where it is checked and where it runs: five fields or six (seconds first),
// never a seventh (a year, which can stop firing for good); in UTC whatever the host's time zone.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { latestTickBefore, mustBeSchedule } from './schedule.ts';
import { missedTick } from './missed-tick.ts';

const now = new Date('2026-06-01T12:00:00.000Z');

describe('a backup schedule', () => {
  it('refuses seven fields (a year), even one that fires twice and then never again', () => {
    for (const schedule of ['0 0 0 1,2 1 * 2027', '0 0 3 * * * 2026', '0 0 3 * * * 2026-2030']) {
      assert.throws(() => mustBeSchedule(schedule, now), /schedule must be a cron expression of five fields/, schedule);
    }
    mustBeSchedule('0 3 * * *', now);
    mustBeSchedule('*/30 * * * * *', now);
  });

  it('is read in UTC, not in the host\'s time zone', () => {
    const zone = process.env.TZ;
    process.env.TZ = 'Asia/Kolkata';
    try {
      assert.equal(latestTickBefore('0 3 * * *', now)?.toISOString(), '2026-06-01T03:00:00.000Z');
    } finally {
      if (zone === undefined) delete process.env.TZ; else process.env.TZ = zone;
    }
  });
});

describe('a tick missed while Berth was down', () => {
  const hourly = { schedule: '0 * * * *', scheduledSince: new Date('2026-06-01T08:30:00.000Z'), lastRunStartedAt: new Date('2026-06-01T09:00:01.000Z') };

  it('is the latest one due, run once, whatever number of ticks went by', () => {
    assert.equal(missedTick(hourly, now)?.toISOString(), '2026-06-01T12:00:00.000Z');
    assert.equal(missedTick(hourly, new Date('2026-06-01T12:59:00.000Z'))?.toISOString(), '2026-06-01T12:00:00.000Z');
    assert.equal(missedTick({ ...hourly, lastRunStartedAt: null }, now)?.toISOString(), '2026-06-01T12:00:00.000Z');
  });

  it('is none when a run started at or after it', () => {
    assert.equal(missedTick({ ...hourly, lastRunStartedAt: new Date('2026-06-01T12:00:00.500Z') }, new Date('2026-06-01T12:30:00.000Z')), null);
  });

  it('is none for a backup created, enabled or given its schedule after the latest tick', () => {
    assert.equal(missedTick({ ...hourly, scheduledSince: new Date('2026-06-01T12:10:00.000Z'), lastRunStartedAt: null }, new Date('2026-06-01T12:30:00.000Z')), null);
  });
});
