// Whole credential files as people keep them (.netrc, Docker's config.json, .npmrc, ECS task
// definitions, .NET app.config, deploy scripts, PHP-escaped JSON): every password in them is found
// at its exact span and redacted, and the look-alikes around them are left alone.
import { beforeAll, describe, expect, it } from 'vitest';
import { initCore } from '../../src/core/core.ts';
import { scanSecrets } from '../../src/secrets/scan.ts';
import { redactSecrets } from '../../src/secrets/redact.ts';
import { isBasicCredential } from '../../src/secrets/filters.ts';

// Values are assembled at run time so the repository holds no credential-shaped strings.
const PW1 = 'Qm7v' + 'R2kx9TzL4pWa';
const PW2 = 'h8Jd' + 'K3mq7XvN2sBc5e';
const TOKEN = 'c91f' + '4ad2e7b04c3a9e15f8d26b7a0c4e93d1';

/** [ruleId, value] of each finding, in order. */
function found(text: string): [string, string][] {
  return scanSecrets(text).map((f) => [f.ruleId, text.slice(f.start, f.end)]);
}

beforeAll(async () => {
  await initCore();
});

describe('credential files', () => {
  it('.netrc: every machine entry, on one line or several', () => {
    const netrc = [
      `machine api.heroku.com login ops@acme.dev password ${TOKEN}`,
      'machine git.acme.dev',
      '  login deploy',
      `  password ${PW1}`,
      'machine ftp.acme.dev login anonymous password guest',
      '',
    ].join('\n');
    expect(found(netrc)).toEqual([
      ['netrc-password', TOKEN],
      ['netrc-password', PW1],
    ]);
    expect(redactSecrets(netrc).text).toBe(
      [
        'machine api.heroku.com login ops@acme.dev password [REDACTED:netrc-password:1]',
        'machine git.acme.dev',
        '  login deploy',
        '  password [REDACTED:netrc-password:2]',
        'machine ftp.acme.dev login anonymous password guest',
        '',
      ].join('\n'),
    );
  });

  it("Docker's config.json: the auth field when it decodes to user:password, not a credential helper", () => {
    const auth = btoa(`ci-bot:${PW2}`);
    const config = JSON.stringify({ auths: { 'registry.acme.dev': { auth }, 'ghcr.io': {} }, credsStore: 'desktop' }, null, 2);
    expect(found(config)).toEqual([['docker-config-auth', auth]]);
    expect(redactSecrets(config).text).toContain('"auth": "[REDACTED:docker-config-auth:1]"');
    // Base64 that is not user:password, or whose password is a default, is not a credential.
    expect(found(JSON.stringify({ auths: { x: { auth: btoa(PW2 + PW1) } } }))).toEqual([]);
    expect(found(JSON.stringify({ auths: { x: { auth: btoa('admin:password') } } }))).toEqual([]);
  });

  it('.npmrc: _auth (user:password) and an npm token', () => {
    const auth = btoa(`deploy:${PW1}`);
    const npmToken = 'npm_' + 'aB3dE5fG7hJ9kL1mN3pQ5rS7tV9wX1yZ3aB5';
    const npmrc = `registry=https://registry.acme.dev/\n//registry.acme.dev/:_auth=${auth}\n//registry.npmjs.org/:_authToken=${npmToken}\nalways-auth=true\n`;
    expect(found(npmrc)).toEqual([
      ['npmrc-auth', auth],
      ['npm-access-token', npmToken],
    ]);
  });

  it('an ECS task definition: name/value pairs, but not valueFrom references or non-secret names', () => {
    const task = JSON.stringify(
      {
        containerDefinitions: [
          {
            environment: [
              { name: 'DB_PASSWORD', value: PW1 },
              { name: 'STRIPE_SECRET', value: PW2 + PW1 },
              { name: 'PASSWORD_MIN_LENGTH', value: '1234567890' },
              { name: 'LOG_LEVEL', value: 'debug' },
            ],
            secrets: [{ name: 'API_TOKEN', valueFrom: 'arn:aws:ssm:eu-west-1:123456789012:parameter/api-token' }],
          },
        ],
      },
      null,
      2,
    );
    expect(found(task)).toEqual([
      ['generic-password-env-entry', PW1],
      ['generic-secret-env-entry', PW2 + PW1],
    ]);
  });

  it('a .NET app.config: appSettings pairs by their key, connection strings by their Password', () => {
    const config = [
      '<configuration>',
      '  <appSettings>',
      `    <add key="ClientSecret" value="${PW2}${PW1}" />`,
      `    <add key="MapsApiKey" value="${TOKEN}" />`,
      '    <add key="SecretName" value="prod-db-credentials" />',
      '    <add key="ApiKeyHeader" value="X-Api-Key-Header-Name" />',
      '  </appSettings>',
      '  <connectionStrings>',
      `    <add name="Db" connectionString="Server=db;Database=app;User Id=app;Password=${PW1};" />`,
      '  </connectionStrings>',
      '</configuration>',
    ].join('\r\n');
    expect(found(config)).toEqual([
      ['generic-secret-env-entry', PW2 + PW1],
      ['generic-api-key-env-entry', TOKEN],
      ['ado-connection-string-password', PW1],
    ]);
  });

  it('a deploy script: flags with a space, curl -u and Authorization: token', () => {
    const script = [
      '#!/bin/sh',
      'set -eu',
      'echo "$REGISTRY_PASSWORD" | docker login -u bot --password-stdin registry.acme.dev',
      `docker login -u bot --password ${PW1} registry.acme.dev`,
      `vault login --token ${TOKEN} -method=token`,
      `curl -u deploy:${PW2} https://api.acme.dev/v1/releases`,
      `curl -H "Authorization: token ${TOKEN}" https://api.github.com/user`,
      'docker run -u 1000:1000 -p 8080:80 app',
      'curl -u "$API_USER:$API_PASSWORD" https://api.acme.dev',
      'tool --token-file ~/.config/token --password-file ./pw.txt',
      'git push -u origin main',
      '',
    ].join('\n');
    expect(found(script)).toEqual([
      ['generic-password-flag', PW1],
      ['generic-token-flag', TOKEN],
      ['curl-auth-user', PW2],
      ['authorization-token-header', TOKEN],
    ]);
  });

  it('JSON with escaped slashes (PHP json_encode): URLs with passwords', () => {
    const json = `{"dsn":"postgres:\\/\\/app:${PW1}@db.acme.internal:5432\\/app","remote":"https:\\/\\/bot:${PW2}@git.acme.dev\\/x.git","home":"https:\\/\\/acme.dev\\/"}`;
    expect(found(json)).toEqual([
      ['postgres-connection-string', PW1],
      ['url-password', PW2],
    ]);
  });

  it('names ending in "pass" hold passwords; Python\'s pass statement and passport fields do not', () => {
    const env = `DB_USER=app\nDB_PASS=${PW1}\nSMTP_PASS="${PW2}"\nDB_PASS_FILE=/run/secrets/db\n`;
    expect(found(env)).toEqual([
      ['generic-pass', PW1],
      ['generic-pass', PW2],
    ]);
    const python = `def f(x):\n    if x:\n        pass\n    passport = "${PW2}"\n    bypass_cache = True\n    return x\n`;
    expect(found(python)).toEqual([]);
  });
});

describe('isBasicCredential', () => {
  it('accepts base64 of user:password with a password that is not a default or a reference', () => {
    expect(isBasicCredential(btoa(`u:${PW1}`))).toBe(true);
    expect(isBasicCredential(btoa(`ci-bot:${PW2}`))).toBe(true);
    // The first colon splits: a password may hold colons.
    expect(isBasicCredential(btoa(`u:a:${PW1}`))).toBe(true);
  });

  it('refuses anything else', () => {
    expect(isBasicCredential(btoa(PW1))).toBe(false); // no colon
    expect(isBasicCredential(btoa(`:${PW1}`))).toBe(false); // no user
    expect(isBasicCredential(btoa('user:'))).toBe(false); // no password
    expect(isBasicCredential(btoa('admin:password'))).toBe(false); // a default
    expect(isBasicCredential(btoa('bot:${REGISTRY_PASSWORD}'))).toBe(false); // a reference
    expect(isBasicCredential(btoa('u:\u0001binary'))).toBe(false); // control bytes: not text
    expect(isBasicCredential('authenticationRequired')).toBe(false); // decodes to bytes, not text
    expect(isBasicCredential('not base64!')).toBe(false); // atob throws
  });
});
