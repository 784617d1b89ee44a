#!/usr/bin/env node
// The `berth` command: TypeScript run through tsx, like every other entry point of Berth.
import { register } from 'tsx/esm/api';

register();
await import('./main.ts');
