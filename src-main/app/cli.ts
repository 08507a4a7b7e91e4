#!/usr/bin/env node
// The executable's path stays put: package.json's bin and the MCP client configurations operators pasted name it.
import './cli/main.js';
