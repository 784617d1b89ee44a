// The five kinds of database service, by their neutral names.
export const ENGINES = ['dbalpha', 'dbbeta', 'dbgamma', 'dbdelta', 'dbepsilon'] as const;
export type Engine = (typeof ENGINES)[number];
