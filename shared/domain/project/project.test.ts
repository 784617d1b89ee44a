import { describe, it } from 'node:test';
import { specOf } from '../testing.ts';
import { projectAggregate, type Project } from './project.ts';

const spec = specOf(projectAggregate);
const created: Project = { projectId: 'p1', name: 'shop', description: null, createdAt: '2026-01-01T00:00:00.000Z' };

describe('project decider', () => {
  it('creates a project that does not exist yet', () => {
    spec.given([]).when({ type: 'CreateProject', data: created }).then([{ type: 'ProjectCreated', data: created }]);
  });
  it('refuses to create a project twice', () => {
    spec.given([{ type: 'ProjectCreated', data: created }]).when({ type: 'CreateProject', data: created }).thenFails('CONFLICT');
  });
  it('records only the fields an update changes', () => {
    spec.given([{ type: 'ProjectCreated', data: created }])
      .when({ type: 'UpdateProject', data: { projectId: 'p1', name: 'shop', description: 'the shop' } })
      .then([{ type: 'ProjectUpdated', data: { projectId: 'p1', description: 'the shop' } }]);
  });
  it('appends nothing for an update that changes nothing', () => {
    spec.given([{ type: 'ProjectCreated', data: created }])
      .when({ type: 'UpdateProject', data: { projectId: 'p1', name: 'shop' } }).then([]);
  });
  it('answers NOT_FOUND naming projectId for a project that was removed', () => {
    spec.given([{ type: 'ProjectCreated', data: created }, { type: 'ProjectRemoved', data: { projectId: 'p1' } }])
      .when({ type: 'UpdateProject', data: { projectId: 'p1', name: 'x' } }).thenFails('NOT_FOUND', 'projectId');
  });
});
