import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compileRedaction, redactCall, redactCallJson, redactValue, REDACTED } from '../../../src-main/audit/index.js';
import { isJunctionError } from '../../../src-main/contracts/errors.js';
import { flatText, jsonTextOf, LEAF_CHARS } from '../../../src-main/shared/index.js';

describe('redaction', () => {
  test('secret-named keys are redacted at any depth, ignoring case, and their paths reported', () => {
    const input = {
      arguments: { user: 'ada', Token: 'tok-1', nested: [{ apiKey: 'k-2', API_KEY: 'k-3', 'x-api-key': 'k-4' }], headers: { Authorization: 'Bearer abc', Cookie: 'sid=1' }, passWord: 'p', clientSecret: 's' },
      result: { structuredContent: { session: { accessToken: 'tok-5' } } },
    };
    const { value, paths } = redactCall(input);
    assert.deepEqual(value.arguments, {
      user: 'ada',
      Token: REDACTED,
      nested: [{ apiKey: REDACTED, API_KEY: REDACTED, 'x-api-key': REDACTED }],
      headers: { Authorization: REDACTED, Cookie: REDACTED },
      passWord: REDACTED,
      clientSecret: REDACTED,
    });
    assert.deepEqual(value.result, { structuredContent: { session: { accessToken: REDACTED } } });
    assert.ok(paths.includes('/arguments/nested/0/x-api-key'));
    assert.ok(paths.includes('/result/structuredContent/session/accessToken'));
    assert.equal(input.arguments.Token, 'tok-1', 'the input is not mutated');
  });

  test('a secret inside JSON text (the text twin of structured content) is redacted too', () => {
    const secret = 'sk-live-0123456789';
    const result = { content: [{ type: 'text', text: JSON.stringify({ password: secret, ok: true }) }], structuredContent: { password: secret, ok: true } };
    const { value, paths } = redactCall({ arguments: {}, result });
    assert.ok(!JSON.stringify(value).includes(secret));
    assert.deepEqual(JSON.parse((value.result as typeof result).content[0]!.text), { password: REDACTED, ok: true });
    assert.ok(paths.includes('/result/content/0/text/password'));
  });

  test('configured pointers (with * wildcards) and regexes apply, and copies of redacted values are scrubbed everywhere', () => {
    const rules = compileRedaction(['/arguments/person/ssn', '/result/items/*/email', 're:AKIA[0-9A-Z]{8}']);
    const doc = {
      arguments: { person: { ssn: '123-45-6789', name: 'Ada' }, note: 'key AKIA12345678 leaked' },
      result: { items: [{ email: 'a@example.com' }, { email: 'b@example.com' }], content: [{ type: 'text', text: 'ssn 123-45-6789 for a@example.com' }] },
    };
    const { value, paths } = redactCall(doc, rules);
    const text = JSON.stringify(value);
    for (const secret of ['123-45-6789', 'a@example.com', 'b@example.com', 'AKIA12345678']) assert.ok(!text.includes(secret), secret);
    assert.equal((value.arguments as { person: { name: string } }).person.name, 'Ada');
    assert.equal((value.arguments as { note: string }).note, `key ${REDACTED} leaked`);
    assert.ok(paths.includes('/arguments/person/ssn'));
    assert.ok(paths.includes('/result/items/1/email'));
  });

  test('empty and null secret values stay as they are (nothing to hide), other values are untouched', () => {
    const { value, paths } = redactValue({ token: null, password: '', count: 3, list: [1, 'two'] });
    assert.deepEqual(value, { token: null, password: '', count: 3, list: [1, 'two'] });
    assert.deepEqual(paths, []);
  });

  test('a malformed redact entry is a configuration error naming it', () => {
    for (const bad of ['no-slash', 're:(unclosed', 're:']) {
      assert.throws(() => compileRedaction([bad]), (e: unknown) => isJunctionError(e) && e.code === 'ConfigInvalid' && e.message.includes(bad));
    }
  });

  test('short secret names, name/value header pairs and credentials in URLs are redacted, through the stored JSON path as well', () => {
    const args = {
      pwd: 'hunter22', passphrase: 'correct horse', auth: 'a-1b2c3', bearer: 'b-9z8y7', ssh_key: '-----BEGIN KEY-----', basic_auth: 'u:pw-4321', 'X-Auth': 'xa-5555',
      headers: [{ name: 'Authorization', value: 'Bearer eyJ0eXAi' }, { name: 'Accept', value: 'text/plain' }, { key: 'x-api-key', value: 'k-7777' }],
      repo: 'https://ada:s3cr3t-pw@git.example.com/r.git',
      note: 'cloned from postgres://svc:db-pass-99@db.internal:5432/app, author Ada',
      author: 'Ada', authority: 'root', bearerOfNews: 'Bob', plain: 'ssh://git@github.com/x.git',
    };
    const secrets = ['hunter22', 'correct horse', 'a-1b2c3', 'b-9z8y7', '-----BEGIN KEY-----', 'u:pw-4321', 'xa-5555', 'eyJ0eXAi', 'k-7777', 's3cr3t-pw', 'db-pass-99'];
    const stored = redactCallJson({ arguments: JSON.stringify(args), result: JSON.stringify({ content: [{ type: 'text', text: 'pushed to https://ada:s3cr3t-pw@git.example.com' }] }) });
    const text = `${stored.value.arguments} ${stored.value.result}`;
    for (const secret of secrets) assert.ok(!text.includes(secret), `${secret} is not stored`);
    const value = JSON.parse(flatText(stored.value.arguments)) as typeof args;
    assert.deepEqual(value.headers, [{ name: 'Authorization', value: REDACTED }, { name: 'Accept', value: 'text/plain' }, { key: 'x-api-key', value: REDACTED }]);
    assert.equal(value.repo, `https://${REDACTED}@git.example.com/r.git`);
    assert.equal(value.note, `cloned from postgres://${REDACTED}@db.internal:5432/app, author Ada`);
    assert.deepEqual([value.author, value.authority, value.bearerOfNews, value.plain], ['Ada', 'root', 'Bob', 'ssh://git@github.com/x.git'], 'ordinary words and a URL without a password stay');
    for (const path of ['/arguments/pwd', '/arguments/ssh_key', '/arguments/headers/0/value', '/arguments/repo', '/result/content/0/text']) assert.ok(stored.paths.includes(path), path);
  });
});

describe('which calls skip the redaction walk', () => {
  /** Base64 that spells secret words, as any screenshot's does. */
  const blob = `${Buffer.alloc(3000, 0x5a).toString('base64')}authTOKENpwdSecretBearer${Buffer.alloc(3000, 0xa5).toString('base64')}`;

  test('a screenshot whose base64 spells secret words is stored as the text it came as, without parsing it', () => {
    const json = { arguments: JSON.stringify({ path: 'shot.png', data: blob }), result: JSON.stringify({ content: [{ type: 'image', data: blob, mimeType: 'image/png' }] }) };
    const stored = redactCallJson(json);
    assert.equal(stored.value, json, 'the same texts, untouched');
    assert.deepEqual(stored.paths, []);
  });

  test('wherever redaction would change a call, the walk runs: a corpus of secrets in every place it looks', () => {
    const places: Array<Record<string, unknown>> = [
      { token: 'abc-1' },
      { nested: [{ 'x-api-key': 'k' }] },
      { headers: [{ name: 'Authorization', value: 'Bearer x' }] },
      { headers: [{ key: 'cookie', value: 'sid' }] },
      { headers: [{ name: `${blob}auth`, value: 'v' }] },
      { text: JSON.stringify({ password: 'p-1', blob }) },
      { text: `\n  ${JSON.stringify({ secret: 's-2' })}` },
      { text: `\t${JSON.stringify([{ name: 'Cookie', value: 'c' }])}` },
      { list: [JSON.stringify({ apiKey: 'k-3' })] },
      { repo: `see ${blob} https://ada:pw-4@git.example.com` },
      { deep: { deeper: { credential: { a: 1 } } } },
      { ['pass\nword']: 'x', ok: { password: 'p-5' } },
    ];
    for (const place of places) {
      for (const where of ['arguments', 'result'] as const) {
        const doc = where === 'arguments' ? { arguments: { ...place, image: blob }, result: { content: [] } } : { arguments: {}, result: { structuredContent: { ...place, image: blob } } };
        const walked = redactCall(doc);
        const changed = walked.paths.length > 0 || JSON.stringify(walked.value) !== JSON.stringify(doc);
        assert.ok(changed, `the corpus entry changes under redaction: ${JSON.stringify(place).slice(0, 80)}`);
        const stored = redactCallJson({ arguments: JSON.stringify(doc.arguments), result: JSON.stringify(doc.result) });
        assert.deepEqual(stored.paths, walked.paths, JSON.stringify(place).slice(0, 80));
        assert.equal(`${stored.value.arguments}|${stored.value.result}`, `${JSON.stringify(walked.value.arguments)}|${JSON.stringify(walked.value.result)}`);
      }
    }
  });

  test('ordinary words and strings that only look like secrets nowhere redaction looks leave the text as it came', () => {
    for (const args of [{ author: 'Ada', note: blob }, { list: [blob, `${blob}password`], name: 'file.png' }, { name: 'shot', value: blob }, { key: 'k', value: 'plain' }]) {
      const json = { arguments: JSON.stringify(args) };
      assert.equal(redactCallJson(json).value, json, JSON.stringify(args).slice(0, 60));
    }
  });
});

describe('redaction of JSON text kept in pieces', () => {
  const pad = (text: string) => `${text}${'Z'.repeat(LEAF_CHARS)}`;
  const blob = pad('authTOKENpwd');

  test('long strings in every place redaction looks are redacted as in the whole text; elsewhere the pieces are stored untouched', () => {
    const docs: Array<{ arguments: unknown; result: unknown }> = [
      { arguments: { data: blob, note: 'plain' }, result: { content: [{ type: 'image', data: blob, mimeType: 'image/png' }] } },
      { arguments: { data: blob, token: 'abc-1' }, result: { content: [] } },
      { arguments: { headers: [{ name: pad('Authorization '), value: 'Bearer x' }] }, result: { content: [] } },
      { arguments: { repo: pad('https://ada:pw-4@git.example.com/ ') }, result: { content: [] } },
      { arguments: { text: `{"password":"p-5","pad":"${blob}"}`, data: blob }, result: { content: [] } },
      { arguments: { text: `  [{"name":"Cookie","value":"c","pad":"${blob}"}]`, data: blob }, result: { content: [] } },
      { arguments: { numbers: `[${'1,'.repeat(LEAF_CHARS)}1]`, data: blob }, result: { content: [] } },
      { arguments: { list: [blob, pad('postgres://svc:db-99@db/ ')] }, result: { structuredContent: { apiKey: 'k' }, content: [] } },
    ];
    let untouched = 0;
    for (const doc of docs) {
      const pieces = { arguments: jsonTextOf(doc.arguments), result: jsonTextOf(doc.result) };
      assert.equal(typeof pieces.arguments, 'object', 'the arguments are in pieces');
      const whole = redactCallJson({ arguments: JSON.stringify(doc.arguments), result: JSON.stringify(doc.result) });
      const fromPieces = redactCallJson(pieces);
      assert.deepEqual(fromPieces.paths, whole.paths);
      assert.equal(flatText(fromPieces.value.arguments), flatText(whole.value.arguments));
      assert.equal(flatText(fromPieces.value.result!), flatText(whole.value.result!));
      if (fromPieces.value === pieces) untouched++;
    }
    assert.equal(untouched, 2, 'only the calls without secrets skip the walk');
  });
});
