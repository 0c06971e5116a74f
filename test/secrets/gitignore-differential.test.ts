// The path gate against git itself: for the never-send defaults and for callers' deny/allow rules,
// every path must be excluded exactly when `git check-ignore` says git ignores it, and the rule the
// gate names must be the one `git check-ignore -v` names. Node only: it runs the git binary.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { CREDENTIAL_FILE_PATHS, createPathGate, DEFAULT_PATH_RULES, DEFAULT_PATH_RULES_VERSION, NEVER_SEND_PATHS } from '../../src/secrets/paths.ts';

const roots: string[] = [];
afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

/** git's verdict per path: the deciding pattern (`!…` when a negation decided), or '' when none matched. */
function gitVerdicts(rules: readonly string[], paths: readonly string[]): Map<string, string> {
  const root = mkdtempSync(join(tmpdir(), 'ctxgate-gitignore-'));
  roots.push(root);
  execFileSync('git', ['init', '-q', root]);
  writeFileSync(join(root, '.git', 'info', 'exclude'), rules.join('\n') + '\n');
  // Real files, so git knows which names are directories.
  for (const p of paths) {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), 'x');
  }
  const run = spawnSync('git', ['-C', root, '-c', 'core.ignoreCase=false', 'check-ignore', '-v', '-n', '--no-index', '--stdin', '-z'], {
    input: paths.join('\0') + '\0',
  });
  // Exit status 1 only says that no path is ignored; anything else is a failure of git.
  expect([run.status, run.stderr.toString('utf8')]).toEqual([run.status === 1 ? 1 : 0, '']);
  const out = run.stdout.toString('utf8');
  // -z: source NUL line NUL pattern NUL path NUL, per path.
  const fields = out.split('\0');
  const verdicts = new Map<string, string>();
  for (let i = 0; i + 3 < fields.length; i += 4) verdicts.set(fields[i + 3]!, fields[i + 2]!);
  expect(verdicts.size).toBe(paths.length);
  return verdicts;
}

/** Drops paths that another path needs as a directory (a name is a file or a directory, not both). */
function asTree(paths: readonly string[]): string[] {
  const unique = [...new Set(paths)];
  return unique.filter((p) => !unique.some((q) => q.startsWith(p + '/')));
}

function compare(options: { deny?: string[]; allow?: string[] }, paths: readonly string[]): void {
  // git gets the defaults as the gate matches them; it names them so, the gate as the lists write them.
  const rules = [...DEFAULT_PATH_RULES.map((r) => r.pattern), ...(options.deny ?? []), ...(options.allow ?? []).map((p) => `!${p}`)];
  const listed = new Map(DEFAULT_PATH_RULES.map((r) => [r.pattern, r.listed]));
  const git = new Map([...gitVerdicts(rules, paths)].map(([p, pattern]) => [p, listed.get(pattern) ?? pattern]));
  const gate = createPathGate(options);
  const mismatches: string[] = [];
  for (const p of paths) {
    const pattern = git.get(p)!;
    const expected = pattern !== '' && !pattern.startsWith('!') ? `excluded by ${pattern}` : 'sent';
    const d = gate.check(p);
    const got = d.allowed ? 'sent' : `excluded by ${d.rule}`;
    if (got !== expected) mismatches.push(`${p}: git ${expected}, gate ${got}`);
  }
  expect(mismatches).toEqual([]);
}

const LISTED = [
  'src/index.ts', '.env', 'config/prod.env', '.env.local', 'apps/web/.env.production', '.env.example', 'web/.env.sample',
  '.env.template', '.env.dist', '.env.example.local', '.envrc', 'tools/.envrc', 'id_rsa', 'id_rsa.pub', 'home/.ssh/id_ed25519',
  'home/.ssh/id_ecdsa_sk', 'keys/id_dsa', 'certs/client.p12', 'certs/server.pem', 'certs/tls.key', 'certs/site.pfx', 'putty/me.ppk',
  'android/release.keystore', 'java/trust.jks', '.netrc', '_netrc', '.pgpass', 'ci/.git-credentials', 'web/.htpasswd',
  '.aws/credentials', 'deploy/.aws/credentials', '.aws/config', 'infra/terraform.tfstate', 'infra/terraform.tfstate.backup',
  'infra/main.tf', 'src/App/bin/Debug/app.dll', 'bin/run', 'src/obj/x.o', 'node_modules/x/index.js', 'a/node_modules/y.js',
  'packages/core/index.ts', 'lib/packages/z.ts', '.vs/settings.json', 'docs/env.md', 'aws/credentials.md', 'tfstate.ts',
  'certs/Server.PEM', '.ENV', '.Env.Local', '.ENV.EXAMPLE', 'home/.ssh/ID_ED25519', 'Deploy/.AWS/Credentials', 'Packages/manifest.json',
  'src/Bin/x.cs', 'Node_Modules/y.js', 'home/.kube/config', '.kube/config.bak', 'kube/config', '.config/gcloud/application_default_credentials.json',
  '.vault-token', 'home/.pypirc', '.s3cfg', '.dockercfg', 'boot/wpa_supplicant.conf', 'etc/wpa_supplicant/wpa_supplicant-wlan0.conf',
  'docs/wpa_supplicant.md', 'nm/Home WiFi.nmconnection', 'nm/Home.NMConnection',
];

describe('path gate vs git check-ignore', () => {
  it('the default lists are identified by their version in config fingerprints', () => {
    const digest = createHash('sha256').update(JSON.stringify(DEFAULT_PATH_RULES.map((r) => r.pattern))).digest('hex');
    expect(DEFAULT_PATH_RULES_VERSION).toBe(digest.slice(0, 16));
    // Every listed rule, in order, in its list.
    expect(DEFAULT_PATH_RULES.map((r) => `${r.list} ${r.listed}`)).toEqual([...NEVER_SEND_PATHS.map((p) => `spec ${p}`), ...CREDENTIAL_FILE_PATHS.map((p) => `credentials ${p}`)]);
  });

  it('rules for files match names in any case; directory rules keep their case', () => {
    const byListed = new Map(DEFAULT_PATH_RULES.map((r) => [r.listed, r.pattern]));
    expect(byListed.get('**/*.pem')).toBe('**/*.[pP][eE][mM]');
    expect(byListed.get('!**/.env.example')).toBe('!**/.[eE][nN][vV].[eE][xX][aA][mM][pP][lL][eE]');
    expect(byListed.get('**/id_ed25519')).toBe('**/[iI][dD]_[eE][dD]25519');
    expect(byListed.get('**/.aws/credentials')).toBe('**/.[aA][wW][sS]/[cC][rR][eE][dD][eE][nN][tT][iI][aA][lL][sS]');
    expect(byListed.get('node_modules/**')).toBe('node_modules/**');
    expect(byListed.get('**/bin/**')).toBe('**/bin/**');
    const gate = createPathGate();
    const named = (p: string) => {
      const d = gate.check(p);
      return d.allowed ? 'sent' : `${d.rule} | ${d.detail}`;
    };
    expect(named('certs/Server.PEM')).toBe('**/*.pem | never-send default "**/*.pem"');
    expect(named('.ENV')).toBe('**/*.env | never-send default "**/*.env"');
    expect(named('config/Prod.Env')).toBe('**/*.env | never-send default "**/*.env"');
    expect(named('.Env.Local')).toBe('**/.env.* | credential-file default "**/.env.*"');
    expect(named('home/.ssh/ID_RSA')).toBe('**/id_rsa | credential-file default "**/id_rsa"');
    expect(named('certs/Client.P12')).toBe('**/*.p12 | credential-file default "**/*.p12"');
    expect(named('deploy/.AWS/Credentials')).toBe('**/.aws/credentials | credential-file default "**/.aws/credentials"');
    expect(named('Infra/Main.TFSTATE')).toBe('**/*.tfstate | credential-file default "**/*.tfstate"');
    // Templates stay sendable in any case; directories and look-alikes are as before.
    for (const p of ['.ENV.EXAMPLE', 'web/.Env.Sample', 'ID_RSA.PUB', 'Node_Modules/x.js', 'Packages/manifest.json', 'src/Bin/x.cs', 'Docs/ENV.md']) {
      expect([p, named(p)]).toEqual([p, 'sent']);
    }
  });

  it('the default lists decide and name rules as git does on a fixed list of paths', () => {
    compare({}, LISTED);
  });

  it("callers' deny and allow rules decide and name rules as git does", () => {
    compare({ deny: ['*.log', 'logs/', '!keep.log', 'secrets/**', '/build'], allow: ['.env.staging', 'packages/public/', 'packages/public/**'] }, [
      ...LISTED,
      'a/debug.log', 'keep.log', 'logs/today.txt', 'x/logs/y.txt', 'secrets/a/b.txt', 'build/out.js', 'src/build/x.js',
      '.env.staging', 'packages/public/a.ts', 'packages/private/a.ts',
    ]);
  });

  it('random trees of tricky names decide as git does (property)', () => {
    const seg = fc.constantFrom(
      'a', 'src', 'bin', 'obj', 'node_modules', 'packages', '.vs', '.env', '.env.local', '.env.example', '.envrc', 'x.env', 'id_rsa',
      'id_rsa.pub', 'k.pem', 'k.key', 'k.p12', 'c.jks', '.aws', 'credentials', 'main.tfstate', '.pgpass', 'logs', 'app.log', 'keep.log',
      // Other cases: file rules match them, directory rules and the callers' rules do not.
      'K.PEM', '.ENV.Local', 'ID_RSA', '.Env.Example', 'Bin', 'Node_modules', 'Packages', 'App.LOG', 'Logs', '.AWS', 'Credentials',
    );
    fc.assert(
      fc.property(fc.array(fc.array(seg, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 30 }), fc.boolean(), (trees, withRules) => {
        const paths = asTree(trees.map((segs) => segs.join('/')));
        compare(withRules ? { deny: ['*.log', 'logs/'], allow: ['keep.log', '.env.local'] } : {}, paths);
      }),
      { numRuns: 25 },
    );
  }, 60_000);
});
