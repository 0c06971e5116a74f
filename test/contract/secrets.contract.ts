import { rules } from '../../build/rules/index.mjs';
import { createCtxgate, isCtxgateError, SecretRiskError } from '../../src/index.ts';
import { initCore } from '../../src/core/core.ts';
import { scanSecretBytes } from '../../src/core/scan.ts';
import { scanSecrets } from '../../src/secrets/scan.ts';
import { redactSecrets } from '../../src/secrets/redact.ts';
import { RULES } from '../../src/secrets/rules.generated.ts';
import { CREDENTIAL_FILE_PATHS, createPathGate, NEVER_SEND_PATHS, normalizeProjectPath } from '../../src/secrets/paths.ts';
import { checkContent, detectEncoding } from '../../src/secrets/content.ts';
import type { Harness } from './harness.ts';

const enc = new TextEncoder();
// Fixture values are assembled at run time so the repository holds no key-shaped strings.
const GH = 'ghp_' + 'Zq8mK2vX9pL4nR7tY1wE3sD6fG0hJ5kA2bC4';
const AWS_ID = 'AKIA' + 'Q3VZ7RTYK2M4WX5N';
const STRIPE = 'sk_live_' + '51Hx7QaR9sLm2KpZ8vNw4TyB';
const PASSWORD = 'Tr0ub4dor' + '&3xQ9vL2';

/** The secrets contract: rules, redaction, refusal, linear time and the path/content gates. */
export function secretsContract({ describe, it, expect, runtime }: Harness): void {
  describe(`secrets (${runtime})`, () => {
    it('every rule finds its positive examples and ignores its negatives', async () => {
      await initCore();
      expect(rules.length).toBeGreaterThanOrEqual(100);
      expect(RULES.map((r) => r.id)).toEqual(rules.map((r) => r.id));
      const problems: string[] = [];
      for (const rule of rules) {
        for (const ex of rule.examples.pos) {
          const at = ex.text.indexOf(ex.secret);
          const hit = scanSecrets(ex.text).some((f) => f.ruleId === rule.id && f.start === at && f.end === at + ex.secret.length);
          if (!hit) problems.push(`${rule.id} missed a positive example`);
        }
        for (const text of rule.examples.neg) {
          if (scanSecrets(text).some((f) => f.ruleId === rule.id)) problems.push(`${rule.id} flagged a negative example`);
        }
      }
      expect(problems).toEqual([]);
    });

    it('reports UTF-16 offsets, lines and columns after non-ASCII text and CRLF', async () => {
      await initCore();
      const text = 'naïve café 😀\r\n日本語: 🎉\r\n  token = ' + GH + '\r\n';
      const findings = scanSecrets(text);
      expect(findings).toHaveLength(1);
      const f = findings[0]!;
      expect(f.ruleId).toBe('github-pat');
      expect(f.confidence).toBe('high');
      expect(text.slice(f.start, f.end)).toBe(GH);
      expect(f.line).toBe(3);
      expect(f.column).toBe(11);
      expect(Object.keys(f).sort()).toEqual(['column', 'confidence', 'end', 'line', 'ruleId', 'start']);
    });

    it('redacts deterministically: same value, same number; numbers follow first appearance', async () => {
      await initCore();
      const text = `a=${GH}\nb=${AWS_ID}\nc=${GH}\nd=${STRIPE}\n`;
      const r1 = redactSecrets(text);
      const r2 = redactSecrets(text);
      expect(r1).toEqual(r2);
      expect(r1.text).toBe(
        'a=[REDACTED:github-pat:1]\nb=[REDACTED:aws-access-key-id:2]\nc=[REDACTED:github-pat:1]\nd=[REDACTED:stripe-live-secret-key:3]\n',
      );
      expect(r1.redactions.map((r) => [r.ruleId, r.line, r.column, r.placeholder])).toEqual([
        ['github-pat', 1, 3, '[REDACTED:github-pat:1]'],
        ['aws-access-key-id', 2, 3, '[REDACTED:aws-access-key-id:2]'],
        ['github-pat', 3, 3, '[REDACTED:github-pat:1]'],
        ['stripe-live-secret-key', 4, 3, '[REDACTED:stripe-live-secret-key:3]'],
      ]);
      // The number depends on order, never on the value: another token in the same place gets 1 too.
      const other = 'ghp_' + 'Aa1Bb2Cc3Dd4Ee5Ff6Gg7Hh8Ii9Jj0Kk1Ll2';
      expect(redactSecrets(`a=${other}\n`).text).toBe('a=[REDACTED:github-pat:1]\n');
    });

    it('leaves placeholders, references, hashes, UUIDs, integrity strings and vendor examples alone', async () => {
      await initCore();
      const safe = [
        'OPENAI_API_KEY=sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
        'api_key = "<YOUR_API_KEY>"',
        'token: ${TOKEN}',
        'const key = process.env.API_KEY;',
        'password = os.environ["DB_PASSWORD"]',
        'aws_access_key_id = ' + 'AKIA' + 'IOSFODNN7EXAMPLE',
        'commit 3f786850e387550fdab836ed7e6dc881de23001b',
        'sha256: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
        '"integrity": "sha512-' + 'q1b0ZCq4mzN3wn7VGJ3BZQ9C6tGg4yYyfz0m9SC7aLz8y2b9fVb2Pp0MmHh6yY0G1X1o8pXk6X3Lz4s5mAa2bQ=="',
        'request_id = "123e4567-e89b-42d3-a456-426614174000"',
        'img = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="',
        'function a(t){return t.token=e.token,n(t)}var token=o.getToken();',
        'password_hash = "' + 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3f4a5b6c7d8e9f0a1b2' + '"',
        'max_tokens = 4096',
      ];
      for (const text of safe) expect([text, scanSecrets(text).map((f) => f.ruleId)]).toEqual([text, []]);
    });

    it('generic assignments in .env, YAML, JSON, TOML, shell and source code', async () => {
      await initCore();
      const forms = [
        `DB_PASSWORD=${PASSWORD}`,
        `  password: "${PASSWORD}"`,
        `{"password": "${PASSWORD}"}`,
        `password = "${PASSWORD}"`,
        `export DB_PASSWORD='${PASSWORD}'`,
        `const dbPassword = "${PASSWORD}";`,
      ];
      for (const text of forms) {
        const f = scanSecrets(text);
        expect([text, f.map((x) => [x.ruleId, x.confidence, text.slice(x.start, x.end)])]).toEqual([text, [['generic-password', 'medium', PASSWORD]]]);
      }
    });

    it("policy 'refuse' throws SecretRiskError with rule ids and positions, never the value", async () => {
      await initCore();
      const text = `host: db\n  password: "${PASSWORD}"\n`;
      expect(redactSecrets(text).text).toBe('host: db\n  password: "[REDACTED:generic-password:1]"\n');
      let thrown: unknown;
      try {
        redactSecrets(text, { mediumConfidence: 'refuse' });
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(SecretRiskError);
      expect(isCtxgateError(thrown, 'SECRET_RISK')).toBe(true);
      const err = thrown as SecretRiskError;
      expect(err.message).toContain('generic-password at 2:14');
      expect(JSON.stringify(err.toJSON())).not.toContain(PASSWORD);
      expect(err.details).toEqual({ findings: [{ ruleId: 'generic-password', confidence: 'medium', line: 2, column: 14 }] });
      // High-confidence findings never refuse: they are always redacted.
      expect(redactSecrets(`t=${GH}`, { mediumConfidence: 'refuse' }).text).toBe('t=[REDACTED:github-pat:1]');
    });

    it('the async engine scans, redacts and refuses with the typed error across the boundary', async () => {
      await using cg = await createCtxgate();
      const text = `x=${GH}\npassword: ${PASSWORD}\n`;
      const findings = await cg.scanSecrets(text);
      expect(findings.map((f) => f.ruleId)).toEqual(['github-pat', 'generic-password']);
      expect((await cg.redactSecrets(text)).text).toBe('x=[REDACTED:github-pat:1]\npassword: [REDACTED:generic-password:2]\n');
      const error = await cg.redactSecrets(text, { mediumConfidence: 'refuse' }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isCtxgateError(error, 'SECRET_RISK')).toBe(true);
      expect((error as Error).name).toBe('SecretRiskError');
      expect((error as Error).message).not.toContain(PASSWORD);
    });

    it('allow/deny lists and user rules', async () => {
      await initCore();
      const acme = 'acme_live_' + 'Q7w8E9r0T1y2U3i4';
      const text = `a=${GH}\nb=${AWS_ID}\nc=${acme}\n`;
      expect(scanSecrets(text, { denyRules: ['github-pat'] }).map((f) => f.ruleId)).toEqual(['aws-access-key-id']);
      expect(scanSecrets(text, { allowRules: ['github-pat'] }).map((f) => f.ruleId)).toEqual(['github-pat']);
      const extraRules = [{ id: 'acme-live-key', prefix: 'acme_live_', charset: 'A-Za-z0-9', minLength: 16, maxLength: 16 }];
      const r = redactSecrets(text, { extraRules });
      expect(r.text).toBe('a=[REDACTED:github-pat:1]\nb=[REDACTED:aws-access-key-id:2]\nc=[REDACTED:acme-live-key:3]\n');
      expect(scanSecrets('c=acme_live_short', { extraRules })).toEqual([]);
      const bad = (options: object, code: string) => {
        let thrown: unknown;
        try {
          scanSecrets(text, options);
        } catch (e) {
          thrown = e;
        }
        expect(isCtxgateError(thrown, code as 'INVALID_PARAMS')).toBe(true);
      };
      bad({ allowRules: ['no-such-rule'] }, 'INVALID_PARAMS');
      bad({ extraRules: [{ id: 'github-pat', prefix: 'abc', charset: 'a-z', minLength: 1, maxLength: 2 }] }, 'INVALID_PARAMS');
      bad({ extraRules: [{ id: 'x', prefix: 'a', charset: 'a-z', minLength: 1, maxLength: 2 }] }, 'INVALID_PARAMS');
      bad({ mediumConfidence: 'maybe' }, 'INVALID_PARAMS');
      bad({ path: 42 }, 'INVALID_PARAMS');
    });

    it('judges each scan on its own text: the core remembers nothing of an earlier scan at the same offsets', async () => {
      await initCore();
      // The same value span, first of low entropy (under the generic bar), then of high, then low.
      const low = 'API_KEY=aaaabbbbaaaabbbb\n';
      const high = `API_KEY=${GH.slice(4, 20)}\n`;
      expect(scanSecrets(low)).toEqual([]);
      expect(scanSecrets(high).map((f) => [f.ruleId, f.start, f.end])).toEqual([['generic-api-key', 8, 24]]);
      expect(scanSecrets(low)).toEqual([]);
    });

    it("a file's path says whether an unquoted name at a line's end is code (ScanOptions.path)", async () => {
      await initCore();
      const types = 'export interface Request {\n  readonly credentials: RequestCredentials\n  readonly mode: RequestMode\n}\n';
      const at = types.indexOf('RequestCredentials');
      expect(scanSecrets(types).map((f) => [f.ruleId, f.start, f.end])).toEqual([['generic-secret', at, at + 18]]);
      expect(scanSecrets(types, { path: 'types/fetch.d.ts' })).toEqual([]);
      expect(redactSecrets(types, { path: 'C:\\web\\Fetch.TS' })).toEqual({ text: types, redactions: [] });
      // On a comment's line it is text: the value is the secret.
      const comment2 = '  // credentials: RequestCredentials\n}\n';
      expect(scanSecrets(comment2, { path: 'types/fetch.d.ts' }).map((f) => f.ruleId)).toEqual(['generic-secret']);
      expect(scanSecrets(types, { path: 'config/request.yaml' }).map((f) => f.ruleId)).toEqual(['generic-secret']);
      // A generated value is a secret in code too (a comment, a string holding .env lines).
      const comment = `# API_TOKEN=${GH.slice(4)}\n`;
      expect(scanSecrets(comment, { path: 'app/settings.py' }).map((f) => [f.ruleId, f.start, f.end])).toEqual([['generic-token', 12, comment.length - 1]]);
    });

    it('stays linear on adversarial input (work counter, not time)', async () => {
      await initCore();
      const cases: [string, (n: number) => string][] = [
        ['one character', (n) => 'a'.repeat(n)],
        ['dashes', (n) => '-'.repeat(n)],
        ['endless base64', (n) => {
          let s = '';
          let x = 12345;
          const b64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
          while (s.length < n) {
            x = (Math.imul(x, 1103515245) + 12345) >>> 0;
            s += b64[x >>> 26];
          }
          return s;
        }],
        ['repeated BEGIN', (n) => '-----BEGIN RSA PRIVATE KEY-----\n'.repeat(Math.ceil(n / 32)).slice(0, n)],
        ['BEGIN then one END', (n) => '-----BEGIN RSA PRIVATE KEY-----'.repeat(Math.ceil(n / 31)).slice(0, n - 40) + '\n-----END RSA PRIVATE KEY-----'],
        // Each label's rule searches up to 32 KiB for its own END line: with one search cache
        // shared by all literals, labels in turn searched the same bytes again (1,600 steps a byte).
        ['BEGIN lines of two labels in turn', (n) => '-----BEGIN RSA PRIVATE KEY-----\n-----BEGIN EC PRIVATE KEY-----\n'.repeat(Math.ceil(n / 63)).slice(0, n)],
        ['BEGIN lines of every label in turn', (n) => {
          const labels = ['RSA PRIVATE KEY', 'DSA PRIVATE KEY', 'EC PRIVATE KEY', 'OPENSSH PRIVATE KEY', 'PRIVATE KEY', 'ENCRYPTED PRIVATE KEY', 'PGP PRIVATE KEY BLOCK', 'SSH2 ENCRYPTED PRIVATE KEY'];
          return labels.map((l) => `-----BEGIN ${l}-----\nPuTTY-User-Key-File-3: x\n`).join('').repeat(Math.ceil(n / 400)).slice(0, n);
        }],
        ['curl without -u', (n) => 'curl '.repeat(Math.ceil(n / 5)).slice(0, n)],
        ['netrc fields', (n) => 'machine a login b password '.repeat(Math.ceil(n / 27)).slice(0, n)],
        ['name/value fields', (n) => '"name": "API_TOKEN", "value": '.repeat(Math.ceil(n / 31)).slice(0, n)],
        ['repeated assignments', (n) => 'password=password='.repeat(Math.ceil(n / 18)).slice(0, n)],
        // Each keyword's value run (up to 256 bytes) lies over the next keywords: without the core's
        // run cache every hit measured it again (74 and 49 inspections a byte).
        ['short assignments', (n) => 'pwd='.repeat(Math.ceil(n / 4)).slice(0, n)],
        ['token assignments', (n) => 'token='.repeat(Math.ceil(n / 6)).slice(0, n)],
        ['shell defaults', (n) => 'pwd:-'.repeat(Math.ceil(n / 5)).slice(0, n)],
        ['keyword soup', (n) => 'ghp_sk-AKIAeyJtoken=xoxb-://'.repeat(Math.ceil(n / 27)).slice(0, n)],
        ['authorization spam', (n) => 'Authorization: Bearer '.repeat(Math.ceil(n / 22)).slice(0, n)],
        // A Go DSN's protocol at every twelfth byte, and after long runs of what a password holds;
        // a rule that reaches back from its keyword: an annotated key's signature over 52
        // characters at every sixth byte.
        ['Go DSN protocols', (n) => 'root:pw@tcp('.repeat(Math.ceil(n / 12)).slice(0, n)],
        ['Go DSN protocols after long runs', (n) => ('p:'.repeat(150) + '@unix(').repeat(Math.ceil(n / 306)).slice(0, n)],
        ['annotated key signatures', (n) => 'JQQJ99'.repeat(Math.ceil(n / 6)).slice(0, n)],
        ['URL schemes', (n) => 'a://'.repeat(Math.ceil(n / 4)).slice(0, n)],
      ];
      for (const [name, make] of cases) {
        const small = scanSecretBytes(make(100_000), RULES.length).steps;
        const large = scanSecretBytes(make(400_000), RULES.length).steps;
        // At most a small constant of byte inspections per input byte, and 4x input gives ~4x work.
        expect([name, large / 400_000 < 24]).toEqual([name, true]);
        expect([name, large / small < 4.4]).toEqual([name, true]);
      }
    });

    it('finds a keyword that shares its 64 bytes with eight or more other keyword positions', async () => {
      await initCore();
      // The prefilter writes the first eight candidate positions of each 64 bytes without a loop
      // and loops only for more; nine `token` before a token put `ghp_` past those eight, at every
      // alignment.
      const pat = 'ghp_yBAoqMEnWnVZqXQB30xRLiGlLEPz1Yvv8GUJ';
      const found: string[] = [];
      for (let pad = 0; pad < 64; pad++) {
        const text = `${' '.repeat(pad)}${'token '.repeat(9)}${pat}\n`;
        const at = pad + 54;
        const hit = scanSecrets(text).find((f) => f.ruleId === 'github-pat');
        found.push(hit ? `${hit.start}-${hit.end}` : 'none');
        expect(text.slice(at, at + pat.length)).toBe(pat);
      }
      expect(found).toEqual(Array.from({ length: 64 }, (_, pad) => `${pad + 54}-${pad + 54 + pat.length}`));
    });

    it('path gate: never-send defaults, gitignore semantics, root jail, duplicates', () => {
      // As in git, re-including files under an excluded directory needs the directory re-included too.
      const gate = createPathGate({ deny: ['*.log', 'secrets/', '!keep.log'], allow: ['packages/public/', 'packages/public/**'] });
      const fileOnly = createPathGate({ allow: ['packages/public/**'] });
      expect(fileOnly.check('packages/public/a.ts')).toMatchObject({ allowed: false, reason: 'deny_rule' });
      const reason = (p: string) => {
        const d = gate.check(p);
        return d.allowed ? 'ok' : d.reason;
      };
      expect(reason('src/index.ts')).toBe('ok');
      expect(reason('.env')).toBe('deny_rule');
      expect(reason('config/prod.env')).toBe('deny_rule');
      expect(reason('.git/config')).toBe('deny_rule');
      expect(reason('src/App/bin/Debug/app.dll')).toBe('deny_rule');
      expect(reason('certs/server.pem')).toBe('deny_rule');
      expect(reason('node_modules/x/index.js')).toBe('deny_rule');
      expect(reason('debug.log')).toBe('deny_rule');
      expect(reason('keep.log')).toBe('ok');
      expect(reason('a/secrets/b.txt')).toBe('deny_rule');
      expect(reason('packages/public/a.ts')).toBe('ok');
      expect(reason('packages/private/a.ts')).toBe('deny_rule');
      for (const p of ['../etc/passwd', 'a/../../b', '/etc/passwd', 'C:/x', 'a\\b', 'a\0b', 'a/%2e%2e/b', 'a\u2215b', 'a\uff0fb', '\u202egnp.exe', '\u2024\u2024/x', '']) {
        expect([JSON.stringify(p), reason(p)]).toEqual([JSON.stringify(p), 'outside_sandbox']);
      }
      expect(normalizeProjectPath('./src//a/./b.ts')).toEqual({ ok: true, path: 'src/a/b.ts' });
      expect(normalizeProjectPath('cafe\u0301.md')).toEqual({ ok: true, path: 'caf\u00e9.md' });
      expect(gate.checkAll(['src/a.ts', './src/a.ts', 'src//a.ts']).map((d) => (d.allowed ? 'ok' : d.reason))).toEqual(['ok', 'duplicate', 'duplicate']);
    });

    it('path gate: credential files are never sent by default; each exclusion names its rule and list', () => {
      const gate = createPathGate();
      const denied = (p: string) => {
        const d = gate.check(p);
        return d.allowed ? 'sent' : `${d.reason} ${d.rule} | ${d.detail}`;
      };
      // The credential-file list: each entry, at the root and deeper.
      expect(denied('.env.local')).toBe('deny_rule **/.env.* | credential-file default "**/.env.*"');
      expect(denied('apps/web/.env.production')).toBe('deny_rule **/.env.* | credential-file default "**/.env.*"');
      expect(denied('.envrc')).toBe('deny_rule **/.envrc | credential-file default "**/.envrc"');
      expect(denied('home/.ssh/id_ed25519')).toBe('deny_rule **/id_ed25519 | credential-file default "**/id_ed25519"');
      expect(denied('id_rsa')).toBe('deny_rule **/id_rsa | credential-file default "**/id_rsa"');
      expect(denied('certs/client.p12')).toBe('deny_rule **/*.p12 | credential-file default "**/*.p12"');
      expect(denied('android/app/release.keystore')).toBe('deny_rule **/*.keystore | credential-file default "**/*.keystore"');
      expect(denied('.pgpass')).toBe('deny_rule **/.pgpass | credential-file default "**/.pgpass"');
      expect(denied('deploy/.aws/credentials')).toBe('deny_rule **/.aws/credentials | credential-file default "**/.aws/credentials"');
      expect(denied('infra/terraform.tfstate')).toBe('deny_rule **/*.tfstate | credential-file default "**/*.tfstate"');
      expect(denied('infra/terraform.tfstate.backup')).toBe('deny_rule **/*.tfstate.backup | credential-file default "**/*.tfstate.backup"');
      expect(denied('home/.kube/config')).toBe('deny_rule **/.kube/config | credential-file default "**/.kube/config"');
      expect(denied('.config/gcloud/application_default_credentials.json')).toBe('deny_rule **/application_default_credentials.json | credential-file default "**/application_default_credentials.json"');
      expect(denied('.vault-token')).toBe('deny_rule **/.vault-token | credential-file default "**/.vault-token"');
      expect(denied('home/.pypirc')).toBe('deny_rule **/.pypirc | credential-file default "**/.pypirc"');
      expect(denied('.s3cfg')).toBe('deny_rule **/.s3cfg | credential-file default "**/.s3cfg"');
      expect(denied('.dockercfg')).toBe('deny_rule **/.dockercfg | credential-file default "**/.dockercfg"');
      expect(denied('boot/wpa_supplicant.conf')).toBe('deny_rule **/wpa_supplicant*.conf | credential-file default "**/wpa_supplicant*.conf"');
      expect(denied('etc/wpa_supplicant/wpa_supplicant-wlan0.conf')).toBe('deny_rule **/wpa_supplicant*.conf | credential-file default "**/wpa_supplicant*.conf"');
      expect(denied('system-connections/Home WiFi.nmconnection')).toBe('deny_rule **/*.nmconnection | credential-file default "**/*.nmconnection"');
      // Names in other cases hold the same credentials (macOS and Windows file systems); the rule
      // is named as its list writes it. Directory rules keep their case.
      expect(denied('certs/Server.PEM')).toBe('deny_rule **/*.pem | never-send default "**/*.pem"');
      expect(denied('home/.ssh/ID_RSA')).toBe('deny_rule **/id_rsa | credential-file default "**/id_rsa"');
      expect(denied('.Env.Production')).toBe('deny_rule **/.env.* | credential-file default "**/.env.*"');
      expect(denied('Packages/manifest.json')).toBe('sent');
      // Templates that are meant to be committed stay sendable; so do look-alikes.
      for (const p of ['.env.example', 'web/.env.sample', '.env.template', '.env.dist', 'id_rsa.pub', 'docs/env.md', 'src/environment.ts', 'aws/credentials.md', 'tfstate.ts', 'k8s/.kube/config.md', 'kube/config', 'docs/wpa_supplicant.md', 'src/pypirc.ts']) {
        expect([p, denied(p)]).toEqual([p, 'sent']);
      }
      // The spec's own list is named as such; a directory rule names itself for the files under it.
      expect(denied('.env')).toBe('deny_rule **/*.env | never-send default "**/*.env"');
      expect(denied('node_modules/x/index.js')).toBe('deny_rule node_modules/** | never-send default "node_modules/**"');
      // The caller's rules: the last rule to match decides and is the one named, as git check-ignore -v does.
      const mine = createPathGate({ deny: ['*.log', 'logs/', '**/.env.*'], allow: ['.env.staging'] });
      const mineDenied = (p: string) => {
        const d = mine.check(p);
        return d.allowed ? 'sent' : `${d.rule} | ${d.detail}`;
      };
      expect(mineDenied('a/debug.log')).toBe('*.log | deny rule "*.log"');
      expect(mineDenied('logs/today.txt')).toBe('logs/ | deny rule "logs/"');
      expect(mineDenied('.env.local')).toBe('**/.env.* | deny rule "**/.env.*"');
      expect(mineDenied('.env.example')).toBe('**/.env.* | deny rule "**/.env.*"');
      expect(mineDenied('.env.staging')).toBe('sent');
      // Re-including one credential file, and turning the defaults off.
      expect(createPathGate({ allow: ['.env.test'] }).check('.env.test')).toEqual({ allowed: true, path: '.env.test' });
      expect(createPathGate({ defaults: false }).check('.env.local')).toEqual({ allowed: true, path: '.env.local' });
      expect(createPathGate({ defaults: false }).check('.env')).toEqual({ allowed: true, path: '.env' });
      // The lists are frozen: no caller can widen what every gate in the process sends.
      expect(Object.isFrozen(NEVER_SEND_PATHS) && Object.isFrozen(CREDENTIAL_FILE_PATHS)).toBe(true);
      expect(NEVER_SEND_PATHS).toHaveLength(10);
    });

    it('content gate: encodings, binary (fail closed) and size', () => {
      const u16le = new Uint8Array([0xff, 0xfe, 0x68, 0x00, 0x69, 0x00]);
      const u16be = new Uint8Array([0xfe, 0xff, 0x00, 0x68, 0x00, 0x69]);
      expect(detectEncoding(enc.encode('plain'))).toEqual({ encoding: 'ascii', bom: false });
      expect(detectEncoding(enc.encode('héllo'))).toEqual({ encoding: 'utf-8', bom: false });
      expect(detectEncoding(new Uint8Array([0xef, 0xbb, 0xbf, 0x68]))).toEqual({ encoding: 'utf-8', bom: true });
      expect(detectEncoding(u16le)).toEqual({ encoding: 'utf-16le', bom: true });
      expect(detectEncoding(u16be)).toEqual({ encoding: 'utf-16be', bom: true });
      const latin = new Uint8Array([...enc.encode('price: 5 '), 0x80, ...enc.encode(' at the caf'), 0xe9]);
      expect(detectEncoding(latin)).toEqual({ encoding: 'windows-1252', bom: false });
      expect(detectEncoding(new Uint8Array([0x61, 0x81, 0x62]))).toEqual({ encoding: 'unknown', bom: false });
      const ok = checkContent(u16le);
      expect(ok).toEqual({ allowed: true, encoding: 'utf-16le', bom: true, text: 'hi' });
      expect(checkContent(latin)).toEqual({ allowed: true, encoding: 'windows-1252', bom: false, text: 'price: 5 € at the café' });
      expect(detectEncoding(new Uint8Array([0xe9, 0xe8, 0xe0, 0x41]))).toEqual({ encoding: 'unknown', bom: false });
      const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
      expect(checkContent(png)).toMatchObject({ allowed: false, reason: 'binary' });
      expect(checkContent(new Uint8Array([0x61, 0x01, 0x02, 0x03, 0x62]))).toMatchObject({ allowed: false, reason: 'binary' });
      expect(checkContent(enc.encode('x'.repeat(100)), { maxBytes: 99 })).toMatchObject({ allowed: false, reason: 'too_large' });
    });
  });
}
