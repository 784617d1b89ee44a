import type { Aggregate } from '../aggregate.ts';
import { exhaustive } from '../aggregate.ts';
import { mustExist, mustNotExist, updated } from '../decisions.ts';

export interface Project {
  projectId: string;
  name: string;
  description: string | null;
  createdAt: string;
}

export type ProjectCommand =
  | { type: 'CreateProject'; data: Project }
  | { type: 'UpdateProject'; data: Pick<Project, 'projectId'> & Partial<Omit<Project, 'projectId' | 'createdAt'>> }
  | { type: 'RemoveProject'; data: { projectId: string } };

export type ProjectEvent =
  | { type: 'ProjectCreated'; data: Project }
  | { type: 'ProjectUpdated'; data: Pick<Project, 'projectId'> & Partial<Project> }
  | { type: 'ProjectRemoved'; data: { projectId: string } };

const LABEL = 'Project';

export const projectAggregate: Aggregate<Project, ProjectCommand, ProjectEvent> = {
  name: 'project',
  idField: 'projectId',
  label: LABEL,
  evolve(state, event) {
    switch (event.type) {
      case 'ProjectCreated': return { ...event.data };
      case 'ProjectUpdated': return state && { ...state, ...event.data };
      case 'ProjectRemoved': return null;
      default: return exhaustive(event);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'CreateProject':
        mustNotExist(state, LABEL, 'projectId');
        return [{ type: 'ProjectCreated', data: command.data }];
      case 'UpdateProject': {
        const project = mustExist(state, 'projectId', LABEL);
        return updated('ProjectUpdated', 'projectId', project.projectId, project, command.data);
      }
      case 'RemoveProject':
        mustExist(state, 'projectId', LABEL);
        return [{ type: 'ProjectRemoved', data: command.data }];
      default: return exhaustive(command);
    }
  },
};
