#!/usr/bin/env node
import { main } from '../dist/crm.js';

process.exitCode = await main(process.argv.slice(2));
