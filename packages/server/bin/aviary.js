#!/usr/bin/env node
// The CLI runs the TypeScript sources directly (there is no build step), so tsx is registered first.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
