import { describe, it } from 'node:test';
import { join, resolve } from 'node:path';
import { RuleTester } from 'eslint';
import { roomDoors } from '../../../scripts/eslint/room-doors.js';

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const src = resolve('src-main');
const plugins = resolve('plugins');
const tester = new RuleTester({ languageOptions: { ecmaVersion: 2022, sourceType: 'module' } });

tester.run('room-doors', roomDoors, {
  valid: [
    { filename: join(src, 'mcp/dispatcher.ts'), code: "import { x } from '../contracts/index.js';" },
    { filename: join(src, 'mcp/dispatcher.ts'), code: "import { x } from './catalogue.js';" },
    { filename: join(src, 'bridge/projects/project-registry.ts'), code: "import { x } from '../registry/index.js';" },
    { filename: join(src, 'host/tools/define-tool.ts'), code: "import { x } from '../core.js';" },
    { filename: join(src, 'contracts/tool-source.ts'), code: "import { x } from './errors.js'; import { Tool } from '@modelcontextprotocol/sdk/types.js';" },
    { filename: join(src, 'app/junction.ts'), code: "import { x } from '../../plugins/sdk/wire/index.js';" },
  ],
  invalid: [
    { filename: join(src, 'mcp/dispatcher.ts'), code: "import { x } from '../shared/json.js';", errors: [{ messageId: 'throughDoor' }] },
    { filename: join(src, 'bridge/projects/project-registry.ts'), code: "export { x } from '../registry/registry.js';", errors: [{ messageId: 'throughDoor' }] },
    { filename: join(src, 'app/junction.ts'), code: "const m = import('../host/modes.js');", errors: [{ messageId: 'throughDoor' }] },
    { filename: join(src, 'contracts/console.ts'), code: "import { x } from '../control/index.js';", errors: [{ messageId: 'contractsDependOnNothing' }] },
    // The SDK is a package: the bridge enters it through its wire door, never its src.
    { filename: join(src, 'bridge/registry/records.ts'), code: "import { x } from '../../../plugins/sdk/src/plugin.js';", errors: [{ messageId: 'throughDoor' }] },
    { filename: join(src, 'bridge/registry/records.ts'), code: "import { x } from '../../../plugins/sdk/wire/tools.js';", errors: [{ messageId: 'throughDoor' }] },
    { filename: join(plugins, 'examples/scene/plugin.ts'), code: "import { x } from '../../sdk/src/errors.js';", errors: [{ messageId: 'throughDoor' }] },
    { filename: join(plugins, 'sdk/src/plugin.ts'), code: "import { x } from '../wire/reading.js';", errors: [{ messageId: 'throughDoor' }] },
  ],
});
