// Private keys, tokens with a structure (JWT), credentials inside URLs, connection strings and
// HTTP Authorization headers.
import { C, F, P, prefixed, uuid } from './dsl.mjs';

const pemBody = () => F(C.b64, 64) + '\n' + F(C.b64, 64) + '\n' + F(C.b64, 64) + '\n' + F(C.b64, 20) + '==';

const pem = (id, description, label) => ({
  id,
  description,
  confidence: 'high',
  keywords: [`-----BEGIN ${label}-----`],
  before: null,
  // The END line must carry the same label, so prose that merely names a header never runs on
  // into some later, unrelated key block.
  steps: [{ until: `-----END ${label}-----`, min: 32, max: 32768 }, `-----END ${label}-----`],
  host: ['structural'],
  after: null,
  examples: {
    pos: [P('key = """\n', `-----BEGIN ${label}-----\n` + pemBody() + `\n-----END ${label}-----`, '\n"""')],
    neg: [`-----BEGIN ${label}-----\n...\n-----END ${label}-----`, `docs: the file starts with -----BEGIN ${label}----- and holds your key.`],
  },
});

/** `scheme://` and the same with JSON's optional escaping of `/` (`scheme:\/\/`, as PHP writes it). */
const withEscapedSlashes = (keywords) => keywords.flatMap((k) => [k, k.replace('://', ':\\/\\/')]);

const dbUrl = (id, description, schemes) => ({
  id,
  description,
  confidence: 'high',
  keywords: withEscapedSlashes(schemes),
  before: null,
  steps: [['userinfo', 0, 128], ':', ['urlpass', 1, 256], '@'],
  secret: [2, 2],
  after: null,
  host: ['password'],
  examples: {
    pos: [
      P(`DATABASE_URL=${schemes[0]}app_user:`, F(C.alnum, 18), '@db.internal:5432/app'),
      P(`{"dsn":"${schemes[0].replace('://', ':\\/\\/')}app_user:`, F(C.alnum, 18), '@db.internal:5432\\/app"}'),
    ],
    neg: [`${schemes[0]}localhost:5432/app`, `${schemes[0]}user:password@localhost/app`, `${schemes[0]}\${DB_USER}:\${DB_PASSWORD}@db/app`],
  },
});

const authValue = 'bearer';

/**
 * `user:password` given to a curl flag (`flag` with its leading blank), up to 512 bytes after
 * `curl` on the same command. The rule starts at `curl`, not at the flag: a keyword of `-u` alone
 * would be looked at in every hyphenated word, and `docker run -u 1000:1000` is no password.
 */
const curlUser = (id, description, flag, examples) => ({
  id,
  description,
  confidence: 'medium',
  keywords: ['curl'],
  steps: [{ until: flag, min: 0, max: 512 }, flag, ['qspeq', 1, 3], ['userinfo', 1, 64], ':', ['urlpass', 6, 256]],
  secret: 'last',
  after: null,
  entropy: 2.5,
  host: ['password', 'command'],
  examples,
});

/** The base64 of a PEM header's first whole 3-byte groups: what a base64-encoded key file starts with. */
const pemHeaderBase64 = (label) => {
  const header = `-----BEGIN ${label}-----`;
  return btoa(header.slice(0, header.length - (header.length % 3)));
};
const PRIVATE_KEY_LABELS = ['RSA PRIVATE KEY', 'DSA PRIVATE KEY', 'EC PRIVATE KEY', 'OPENSSH PRIVATE KEY', 'PRIVATE KEY', 'ENCRYPTED PRIVATE KEY'];

export default [
  {
    // Kubernetes Secret `data:` (tls.key, ssh-privatekey), kubeconfig `client-key-data:`, CI
    // variables: a whole key file in base64 on one line. Encoding starts at the file's first
    // byte, so every such value starts with the same characters.
    id: 'private-key-base64',
    description: 'Private key file encoded in base64 (Kubernetes Secret data, kubeconfig client-key-data)',
    confidence: 'high',
    keywords: PRIVATE_KEY_LABELS.map(pemHeaderBase64),
    steps: [['b64e', 64, 65535]],
    after: null,
    host: ['structural'],
    examples: {
      pos: [
        P('  tls.key: ', btoa(`-----BEGIN RSA PRIVATE KEY-----\n${pemBody()}\n-----END RSA PRIVATE KEY-----\n`), '\n'),
        P('    client-key-data: ', btoa(`-----BEGIN EC PRIVATE KEY-----\n${pemBody()}\n-----END EC PRIVATE KEY-----\n`), '\n'),
        P('  ssh-privatekey: "', btoa(`-----BEGIN OPENSSH PRIVATE KEY-----\n${pemBody()}\n-----END OPENSSH PRIVATE KEY-----\n`), '"'),
      ],
      neg: [
        // Certificates and public keys are not secrets.
        '  tls.crt: ' + btoa(`-----BEGIN CERTIFICATE-----\n${pemBody()}\n-----END CERTIFICATE-----\n`),
        '  key.pub: ' + btoa(`-----BEGIN PUBLIC KEY-----\n${pemBody()}\n-----END PUBLIC KEY-----\n`),
        '  tls.key: ' + pemHeaderBase64('RSA PRIVATE KEY') + '...',
      ],
    },
  },
  pem('private-key-rsa', 'RSA private key (PEM)', 'RSA PRIVATE KEY'),
  pem('private-key-dsa', 'DSA private key (PEM)', 'DSA PRIVATE KEY'),
  pem('private-key-ec', 'EC private key (PEM)', 'EC PRIVATE KEY'),
  pem('private-key-openssh', 'OpenSSH private key', 'OPENSSH PRIVATE KEY'),
  pem('private-key-pkcs8', 'PKCS #8 private key (PEM)', 'PRIVATE KEY'),
  pem('private-key-pkcs8-encrypted', 'Encrypted PKCS #8 private key (PEM)', 'ENCRYPTED PRIVATE KEY'),
  pem('private-key-pgp', 'PGP private key block', 'PGP PRIVATE KEY BLOCK'),
  pem('private-key-ssh2-encrypted', 'SSH2 encrypted private key', 'SSH2 ENCRYPTED PRIVATE KEY'),
  {
    id: 'private-key-putty',
    description: 'PuTTY private key file (.ppk)',
    confidence: 'high',
    keywords: ['PuTTY-User-Key-File-'],
    before: null,
    steps: [['digit', 1, 1], ':', { until: 'Private-MAC:', min: 32, max: 32768 }, 'Private-MAC:', ['sp', 0, 2], ['hexi', 40, 64]],
    host: ['structural'],
    examples: {
      pos: [P('', 'PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: k\nPublic-Lines: 2\n' + F(C.b64, 64) + '\nPrivate-Lines: 1\n' + F(C.b64, 48) + '\nPrivate-MAC: ' + F(C.hex, 64), '\n')],
      neg: ['PuTTY-User-Key-File-3: ssh-ed25519\nComment: no mac'],
    },
  },
  {
    id: 'jwt',
    description: 'JSON Web Token (signed)',
    confidence: 'high',
    keywords: ['eyJ'],
    before: 'b64url',
    steps: [['b64url', 10, 4096], '.', ['b64url', 10, 16384], '.', ['b64url', 16, 1024]],
    entropy: 3.5,
    examples: {
      pos: [
        P('Authorization: ', 'eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJ' + F(C.b64url, 80) + '.' + F(C.b64url, 43)),
        P('{"id_token":"', 'eyJhbGciOiJFUzI1NiJ9.eyJ' + F(C.b64url, 40) + '.' + F(C.b64url, 86), '"}'),
      ],
      neg: ['eyJhbGciOiJIUzI1NiJ9', 'data:application/json;base64,eyJ2ZXJzaW9uIjozLCJzb3VyY2VzIjpbXX0=', 'eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.'],
    },
  },
  dbUrl('postgres-connection-string', 'PostgreSQL connection URL with a password', ['postgres://', 'postgresql://']),
  dbUrl('mysql-connection-string', 'MySQL / MariaDB connection URL with a password', ['mysql://', 'mariadb://', 'mysql+pymysql://', 'mysqlx://']),
  dbUrl('mongodb-connection-string', 'MongoDB connection URL with a password', ['mongodb+srv://', 'mongodb://']),
  dbUrl('redis-connection-string', 'Redis connection URL with a password', ['redis://', 'rediss://']),
  dbUrl('amqp-connection-string', 'AMQP (RabbitMQ) connection URL with a password', ['amqp://', 'amqps://']),
  dbUrl('mssql-connection-string', 'SQL Server connection URL with a password', ['sqlserver://', 'mssql://']),
  {
    id: 'go-dsn-password',
    description: "Password in a Go SQL driver DSN (user:password@tcp(host)/db, the MySQL driver's form)",
    confidence: 'high',
    // Such a DSN has no scheme to key on: the keyword is the protocol after the `@`. The host reads
    // `user:password` back from it (userinfoPassword, at most 256 characters) and takes the
    // password: what follows the user's first `:`, where Go's driver splits. A password may hold
    // `@`, `/`, `#`, `{`…, which no class of the core's reach back would stop at correctly.
    keywords: ['@tcp(', '@tcp6(', '@unix('],
    before: null,
    steps: [['ident', 0, 253]],
    after: null,
    host: ['userinfo', 'password'],
    examples: {
      pos: [
        P('db, err := sql.Open("mysql", "app:', F(C.alnum, 18), '@tcp(db.internal:3306)/app?parseTime=true")'),
        P('DB_DSN=app:', F(C.alnum, 18), '@tcp(127.0.0.1:3306)/app'),
        P('dsn := "gorm:', F(C.alnum, 12) + ':' + F(C.alnum, 6), '@tcp(localhost:9910)/gorm?charset=utf8mb4"'),
        P("mysql:\n  dsn: 'worker:", F(C.alnum, 20), "@unix(/var/run/mysqld/mysqld.sock)/jobs'"),
        // A password with `@`, `/` and `:` in it: Go's driver splits the DSN at its last `@`.
        P('dsn := "app:', F(C.alnum, 6) + '@' + F(C.alnum, 5) + '/' + F(C.alnum, 4) + ':' + F(C.alnum, 6), '@tcp(db:3306)/app"'),
        P('DB_DSN=app:', F(C.alnum, 12) + '}', '@tcp(db:3306)/app'),
      ],
      neg: [
        // No password, an empty one, a stand-in, a format string and a reference.
        'dsn := "root@tcp(127.0.0.1:3306)/test"',
        'dsn := "root:@tcp(127.0.0.1:3306)/test"',
        '// username:password@protocol(address)/dbname, e.g. user:password@tcp(localhost:5555)/dbname',
        'dsn := fmt.Sprintf("%s:%s@tcp(%s:%d)/%s", user, pass, host, port, name)',
        'DB_DSN=app:${DB_PASSWORD}@tcp(db:3306)/app',
        'dsn := user + ":" + pass + "@tcp(" + host + ")/app"',
        // Two DSNs without passwords on one line.
        'DSNS=reader@tcp(r:3306),writer@tcp(w:3306)',
      ],
    },
  },
  {
    id: 'ado-connection-string-password',
    description: 'Password in an ADO.NET / ODBC / JDBC connection string (Password=…; Pwd=…;)',
    confidence: 'high',
    keywords: ['password=', 'pwd='],
    ci: true,
    // Only after `;` or at the start: `DB_PASSWORD=` in a .env file is the generic rule's job.
    before: 'notconnsep',
    steps: [['connval', 6, 256]],
    secret: 'last',
    after: null,
    entropy: 2.5,
    host: ['password', 'pairs'],
    examples: {
      pos: [P('Server=tcp:db.acme.internal,1433;Database=app;User Id=app;Password=', F(C.alnum, 20), ';Encrypt=true;')],
      neg: ['Server=db;Database=app;Integrated Security=true;', 'Server=db;User Id=sa;Password=<password>;'],
    },
  },
  {
    // ODBC quotes a value that holds `;` or other special characters in braces (`Pwd={a;b}`), and
    // pyodbc and SQL Server samples write every password that way. Inside, only `}` ends it.
    id: 'odbc-connection-string-braced-password',
    description: 'Password in braces in an ODBC connection string (Pwd={…}; Password={…};)',
    confidence: 'high',
    keywords: ['password={', 'pwd={'],
    ci: true,
    before: 'notconnsep',
    steps: [['bracedval', 6, 256], '}'],
    secret: [0, 0],
    after: null,
    entropy: 2.5,
    host: ['password'],
    examples: {
      pos: [
        P('DRIVER={ODBC Driver 18 for SQL Server};SERVER=db.acme.internal;DATABASE=app;UID=app;PWD={', F(C.alnum, 12) + ';' + F(C.alnum, 8) + ' !', '};Encrypt=yes'),
        P('conn = pyodbc.connect("Driver={SQL Server};Server=db;Uid=sa;Pwd={', F(C.alnum, 16), '}")'),
      ],
      neg: ['Driver={SQL Server};Server=db;Trusted_Connection=yes;', 'DRIVER={ODBC Driver 18 for SQL Server};UID=app;PWD={<password>};', 'UID=app;PWD={${DB_PASSWORD}};'],
    },
  },
  {
    id: 'url-password',
    description: 'Password embedded in a URL (scheme://user:password@host)',
    confidence: 'medium',
    keywords: withEscapedSlashes(['://']),
    back: ['scheme', 1, 24],
    before: 'scheme',
    steps: [['userinfo', 0, 128], ':', ['urlpass', 3, 256], '@'],
    secret: [2, 2],
    after: null,
    entropy: 2.5,
    host: ['password'],
    examples: {
      pos: [
        P('proxy: http://svc:', F(C.alnum, 16), '@proxy.corp:3128'),
        P('git remote add o https://bot:', F(C.alnum, 24), '@git.acme.dev/x.git'),
        P('{"remote":"https:\\/\\/bot:', F(C.alnum, 24), '@git.acme.dev\\/x.git"}'),
      ],
      neg: ['https://example.com/a:b@c', 'https://user@host/path', 'ftp://anonymous:guest@ftp.example.org'],
    },
  },
  {
    // `https://TOKEN@host`: Git hosts take a token as a URL's only user information (GitHub's
    // older 40-hex tokens, Azure DevOps PATs, CI scripts' clone URLs). A user's name there is
    // common too, so the value must look generated (isGeneratedKey, with no name before it; 32
    // or more hex characters do); and a Sentry DSN's key (`https://<32 hex>@host/<project number>`),
    // meant to ship in client code, is no secret.
    id: 'url-token',
    description: 'Token as the only user information of a URL (https://TOKEN@host)',
    confidence: 'medium',
    keywords: withEscapedSlashes(['://']),
    back: ['scheme', 1, 24],
    before: 'scheme',
    steps: [['b64url', 20, 256], '@'],
    secret: [0, 0],
    after: null,
    entropy: 3.0,
    host: ['generated'],
    examples: {
      pos: [
        P('git clone https://', F(C.hex, 40), '@github.com/acme/api.git'),
        // A 32-hex token that is no Sentry DSN's key: the URL goes on to a repository.
        P('git clone https://', F(C.hex, 32), '@git.acme.dev/acme/api.git'),
        P('git remote set-url origin https://', F('abcdefghijklmnopqrstuvwxyz234567', 52), '@dev.azure.com/acme/_git/api'),
        P('"url": "https:\\/\\/', F(C.alnum, 36), '@git.acme.dev\\/x.git"'),
      ],
      neg: [
        'git clone https://octocat-the-developer@bitbucket.org/acme/api.git',
        'git clone https://${GITHUB_TOKEN}@github.com/acme/api.git',
        'https://x-access-token@github.com/acme/api',
        'Sentry.init({ dsn: "https://' + F(C.hex, 32) + '@o123456.ingest.sentry.io/4504" })',
        'ssh://git@github.com/acme/api.git',
      ],
    },
  },
  {
    id: 'authorization-bearer-header',
    description: 'Authorization: Bearer header with a token',
    confidence: 'high',
    keywords: ['authorization'],
    ci: true,
    before: null,
    steps: [['qsp', 0, 6], ['assign', 1, 2], ['qsp', 0, 4], { lit: authValue, ci: true }, ['sp', 1, 3], ['bearer', 16, 4096]],
    secret: 'last',
    entropy: 3.0,
    examples: {
      pos: [
        P("curl -H 'Authorization: Bearer ", F(C.alnum, 40), "' https://api.acme.dev"),
        P('{"headers": {"Authorization": "Bearer ', F(C.b64url, 32) + '.' + F(C.b64url, 20), '"}}'),
        // URL-encoded, whole: the class used to end it at its first `%`, below the minimum length.
        P('Authorization: Bearer ', F(C.alnum, 12) + '%2B' + F(C.alnum, 20) + '%3D', ''),
        // An X (Twitter) app-only token: its runs of `A` are the format, not a stand-in.
        P('curl -H "Authorization: Bearer ', 'A'.repeat(21) + F(C.alnum, 4) + 'A'.repeat(7) + F(C.alnum, 1) + '%2B' + F(C.alnum, 20) + '%3D' + F(C.alnum, 50), '" https://api.x.com/2/tweets'),
      ],
      neg: [
        'Authorization: Bearer ${TOKEN}',
        "headers['Authorization'] = 'Bearer ' + token",
        'Authorization: Bearer <token>',
        // Stand-ins in the X shape: all `A`s, or a placeholder after them.
        'Authorization: Bearer ' + 'A'.repeat(112),
        'Authorization: Bearer ' + 'A'.repeat(22) + 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
        'Authorization: Bearer %s',
      ],
    },
  },
  {
    id: 'authorization-basic-header',
    description: 'Authorization: Basic header with credentials',
    confidence: 'high',
    keywords: ['authorization'],
    ci: true,
    before: null,
    steps: [['qsp', 0, 6], ['assign', 1, 2], ['qsp', 0, 4], { lit: 'basic', ci: true }, ['sp', 1, 3], ['b64e', 8, 1024]],
    secret: 'last',
    entropy: 2.5,
    // A value that is not base64 of `user:password` is still taken (a token sent under the wrong
    // scheme is as secret), unless it reads as words; a pair is taken unless its password is a
    // default or a stand-in and its user has no digit: documentation writing about the header.
    host: ['headerProse'],
    examples: {
      pos: [P('Authorization: Basic ', btoa('svc-user:' + F(C.alnum, 16))), P('Authorization: Basic ', F(C.alnum, 24))],
      neg: [
        'Authorization: Basic ${CREDS}',
        'Authorization: Basic realm="api"',
        'Send the header Authorization: Basic authentication is used by the proxy.',
        'Authorization: Basic Base64EncodedCredentials',
        'Authorization: Basic Credentials',
        // user:password
        'Authorization: Basic dXNlcjpwYXNzd29yZA==',
        // RFC 7617's example.
        'Authorization: Basic QWxhZGRpbjpvcGVu' + 'IHNlc2FtZQ==',
      ],
    },
  },
  {
    // The same Basic credentials with no `:` or `=` after the header's name: its value as the next
    // argument of a call (`req.Header.Add("Authorization", "Basic …")`, `headers.set('Authorization',
    // 'Basic …')`) or of a web server's directive (nginx's `proxy_set_header Authorization "Basic …"`,
    // Apache's `RequestHeader set`, HAProxy's `set-header`). Bearer tokens in these places are the
    // bearer-token rule's. With no assignment the words could be prose, so the value must decode to
    // `user:password` (host: basic).
    id: 'authorization-basic-argument',
    description: 'Basic credentials given as the value after an Authorization header name (a call argument or a server directive)',
    confidence: 'high',
    keywords: ['authorization'],
    ci: true,
    before: null,
    steps: [['qspc', 1, 8], { lit: 'basic', ci: true }, ['sp', 1, 3], ['b64e', 8, 1024]],
    secret: 'last',
    entropy: 2.5,
    host: ['basic'],
    examples: {
      pos: [
        P('req.Header.Add("Authorization", "Basic ', btoa('svc-user:' + F(C.alnum, 16)), '")'),
        P("proxy_set_header Authorization \"Basic ", btoa('admin:' + F(C.alnum, 14)), '";'),
        P("headers.set('Authorization', 'Basic ", btoa('ops@acme.dev:' + F(C.alnum, 18)), "');"),
      ],
      neg: [
        'proxy_set_header Authorization "Basic $http_authorization";',
        'headers.set("Authorization", "Basic " + btoa(user + ":" + pass))',
        'The Authorization, Basic authentication, and Bearer schemes are described in RFC 7235.',
        'proxy_set_header Authorization "Basic dXNlcjpwYXNzd29yZA==";',
      ],
    },
  },
  {
    id: 'bearer-token',
    description: 'Bearer token outside an Authorization header',
    confidence: 'medium',
    keywords: ['bearer '],
    ci: true,
    before: 'alnum',
    steps: [['sp', 0, 2], ['bearer', 20, 4096]],
    secret: 'last',
    entropy: 3.5,
    examples: {
      pos: [P('token_type=bearer access: bearer ', F(C.alnum, 40))],
      neg: ['the bearer token is passed in a header', 'Bearer ' + 'a'.repeat(30)],
    },
  },
  {
    id: 'authorization-token-header',
    description: 'Authorization header with the `token` scheme (GitHub, Django REST framework)',
    confidence: 'high',
    keywords: ['authorization'],
    ci: true,
    before: null,
    steps: [['qsp', 0, 6], ['assign', 1, 2], ['qsp', 0, 4], { lit: 'token', ci: true }, ['sp', 1, 3], ['bearer', 16, 4096]],
    secret: 'last',
    entropy: 3.0,
    examples: {
      pos: [P("curl -H 'Authorization: token ", F(C.alnum, 40), "' https://api.acme.dev/user"), P('headers = {"Authorization": "Token ', F(C.hex, 40), '"}')],
      neg: ['Authorization: token ${GITHUB_TOKEN}', 'Authorization: Token <your token>', "headers['Authorization'] = 'Token ' + key"],
    },
  },
  // Any other scheme (Okta's SSWS, Discord's Bot, Elastic's ApiKey, Splunk, Negotiate, …). After
  // the specific header rules: a span they also match is reported under their id.
  {
    id: 'authorization-scheme-header',
    description: 'Authorization header with another scheme (SSWS, Bot, ApiKey, Splunk, …)',
    confidence: 'medium',
    keywords: ['authorization'],
    ci: true,
    before: null,
    steps: [['qsp', 0, 6], ['assign', 1, 2], ['qsp', 0, 4], ['alpha', 2, 16], ['sp', 1, 3], ['bearer', 16, 4096]],
    secret: 'last',
    // Not a call: `Authorization = new AuthenticationHeaderValue("Bearer", …)` and `Authorization:
    // await getAccessToken()` are code, `new` and `await` no scheme.
    after: 'bearercall',
    entropy: 3.5,
    host: ['headerProse'],
    examples: {
      pos: [
        P('Authorization: SSWS ', '00' + F(C.b64url, 40)),
        P("headers: { Authorization: 'ApiKey ", btoa(F(C.alnum, 20) + ':' + F(C.alnum, 22)), "' }"),
        P('Authorization: Splunk ', uuid()),
        P('Authorization: Bot ', F(C.b64url, 24) + '.' + F(C.b64url, 6) + '.' + F(C.b64url, 38)),
      ],
      neg: [
        'Authorization: SSWS ${OKTA_API_TOKEN}',
        'Authorization: Digest username="admin", realm="api", nonce="' + F(C.hex, 32) + '"',
        'Authorization: AWS4-HMAC-SHA256 Credential=AKIA' + F(C.upnum, 16) + '/20130524/us-east-1/s3/aws4_request',
        'authorization: Required for every endpoint of the admin API',
        'Authorization: ApiKey <your-api-key>',
        'client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", token);',
        'headers: { Authorization: await auth0.getAccessTokenSilently() }',
        'Authorization: ApiKey YourApiKeyGoesHereFromTheConsole',
        'Authorization: Basic Base64EncodedCredentials',
      ],
    },
  },
  // A Kubernetes image pull secret: .dockerconfigjson is base64 of {"auths": …}, whose first
  // nine bytes always encode to eyJhdXRocyI6; inside are the registries' base64 user:password.
  prefixed('docker-config-json-base64', 'Docker config.json in base64 (Kubernetes .dockerconfigjson)', 'eyJhdXRocyI6', [['b64', 40, 65535], ['eq', 0, 2]], {
    pos: [P('  .dockerconfigjson: ', btoa(JSON.stringify({ auths: { 'ghcr.io': { auth: btoa('bot:' + F(C.alnum, 24)) } } })))],
    neg: [btoa('{"auths":{}}'), 'eyJhdXRocyI6' + F(C.b64, 12)],
  }, { after: 'b64e' }),
  prefixed('nostr-private-key', 'Nostr private key (nsec1…)', 'nsec1', [['bech32l', 58]], {
    pos: [P('const sk = "', 'nsec1' + F(C.bech32.toLowerCase(), 58), '"')],
    neg: ['nsec1' + F(C.bech32.toLowerCase(), 20), 'npub1' + F(C.bech32.toLowerCase(), 58)],
  }),
  {
    id: 'netrc-password',
    description: 'Password in a .netrc entry (machine … login … password …)',
    confidence: 'high',
    keywords: ['machine'],
    steps: [['ws', 1, 16], ['notws', 1, 253], ['ws', 1, 16], 'login', ['ws', 1, 16], ['notws', 1, 256], ['ws', 1, 16], 'password', ['ws', 1, 16], ['notws', 6, 256]],
    secret: 'last',
    after: null,
    host: ['password'],
    examples: {
      pos: [
        P('machine api.heroku.com login ops@acme.dev password ', uuid(), '\n'),
        P('machine git.acme.dev\n  login deploy\n  password ', F(C.alnum, 20), '\nmachine other'),
      ],
      neg: [
        'machine example.com login user password ${NETRC_PASSWORD}',
        'machine example.com login anonymous password guest',
        'the machine learning login page password field',
        'machine: build-01, login: ci, password: see vault',
      ],
    },
  },
  {
    id: 'docker-config-auth',
    description: 'Registry credentials in a Docker config.json `auth` field (base64 of user:password)',
    confidence: 'high',
    keywords: ['"auth"'],
    before: null,
    steps: [['sp', 0, 4], ':', ['sp', 0, 4], '"', ['b64e', 8, 2048], '"'],
    secret: [4, 4],
    after: null,
    host: ['basic'],
    examples: {
      pos: [P('{"auths":{"registry.acme.dev":{"auth":"', btoa('ci-bot:' + F(C.alnum, 20)), '"}}}')],
      neg: ['{"auths":{"registry.acme.dev":{}},"credsStore":"desktop"}', '{"auth": "authenticationRequired"}', '{"auth":"' + btoa(F(C.alnum, 24)) + '"}'],
    },
  },
  {
    id: 'npmrc-auth',
    description: 'Registry credentials in an .npmrc `_auth` setting (base64 of user:password)',
    confidence: 'high',
    keywords: ['_auth'],
    before: null,
    steps: [['sp', 0, 4], '=', ['sp', 0, 4], ['b64e', 8, 2048]],
    secret: 'last',
    host: ['basic'],
    examples: {
      pos: [P('//registry.acme.dev/:_auth=', btoa('deploy:' + F(C.alnum, 18)), '\nalways-auth=true')],
      neg: ['//registry.acme.dev/:_auth=${NPM_AUTH}', '_auth = ' + btoa(F(C.alnum, 21))],
    },
  },
  {
    // A JSON Web Key's private members: `d` (the private exponent or scalar of RSA, EC and OKP keys),
    // RSA's primes and CRT values `p`, `q`, `dp`, `dq`, `qi` (either prime gives the key back, so
    // each is reported, not `d` alone) and an `oct` key's `k`. Public members (`n`, `e`, `x`, `y`)
    // are not. The member name is the keyword, quoted as JSON or a Python dict writes it; the host
    // reports it only when a `kty` member is near (isJwkMember), as RFC 7517 requires of every JWK.
    id: 'jwk-private-key',
    description: 'Private or symmetric key material in a JSON Web Key (d, p, q, dp, dq, qi, k)',
    confidence: 'high',
    keywords: ['"d"', '"p"', '"q"', '"dp"', '"dq"', '"qi"', '"k"', "'d'", "'p'", "'q'", "'dp'", "'dq'", "'qi'", "'k'"],
    before: null,
    steps: [['sp', 0, 4], ':', ['sp', 0, 4], ['quote', 1, 1], ['b64url', 16, 1400], ['quote', 1, 1]],
    secret: [4, 4],
    after: null,
    entropy: 3.0,
    host: ['keyMaterial', 'jwk'],
    examples: {
      pos: [
        P('{"kty":"EC","crv":"P-256","x":"' + F(C.b64url, 43) + '","y":"' + F(C.b64url, 43) + '","d":"', F(C.b64url, 43), '"}'),
        P('{"crv":"Ed25519","d":"', F(C.b64url, 43), '","kty":"OKP","x":"' + F(C.b64url, 43) + '"}'),
        P('{\n  "keys": [\n    {\n      "kty": "RSA",\n      "n": "' + F(C.b64url, 342) + '",\n      "e": "AQAB",\n      "d": "' + F(C.b64url, 342) + '",\n      "p": "', F(C.b64url, 171), '",\n      "q": "' + F(C.b64url, 171) + '"\n    }\n  ]\n}'),
        P('{"kty":"RSA","dq":"', F(C.b64url, 171), '"}'),
        P("key = {'kty': 'oct', 'k': '", F(C.b64url, 43), "', 'alg': 'HS256'}"),
      ],
      neg: [
        '{"kty":"RSA","n":"' + F(C.b64url, 342) + '","e":"AQAB","kid":"2024-1"}',
        '{"kty":"EC","crv":"P-256","x":"' + F(C.b64url, 43) + '","y":"' + F(C.b64url, 43) + '"}',
        '{"d":"' + F(C.b64url, 43) + '","t":1700000000}',
        '{"kty":"EC","d":"2024-01-01T00:00:00Z"}',
        '{"kty":"oct","k":"' + 'A'.repeat(43) + '"}',
      ],
    },
  },
  {
    // WordPress's eight keys and salts sign its login cookies and nonces: whoever has them can forge
    // a logged-in session. Generated values (api.wordpress.org/secret-key, wp-cli) are 64 characters
    // with blanks and every symbol, so the generic rules, whose values end at a blank and whose
    // placeholder fragments (`{{`, `${`, `%s`) occur by chance in about one salt in thirty, let
    // them through whole or in part. The names are WordPress's own (`auth_key` also ends
    // SECURE_AUTH_KEY and the official image's WORDPRESS_AUTH_KEY); the value must be quoted,
    // and the host turns away phrases and templates (isKeyStandIn).
    id: 'wordpress-auth-key',
    description: "WordPress authentication key or salt (define('AUTH_KEY', …) in wp-config.php, WORDPRESS_AUTH_KEY)",
    confidence: 'high',
    keywords: ['auth_key', 'logged_in_key', 'nonce_key', 'auth_salt', 'logged_in_salt', 'nonce_salt'],
    ci: true,
    steps: [['quote', 0, 1], ['sp', 0, 2], ['wpsep', 1, 2], ['sp', 0, 24], ['quote', 1, 1], ['wpsalt', 32, 128], ['quote', 1, 1]],
    secret: [5, 5],
    after: null,
    entropy: 4.2,
    host: ['keyMaterial'],
    examples: {
      pos: [
        P("define( 'AUTH_KEY',         '", F(C.wp, 64), "' );"),
        P("define('SECURE_AUTH_SALT', '", F(C.wp, 64), "');"),
        P("define( 'LOGGED_IN_KEY',    '", F(C.wp, 64), "' );\ndefine( 'NONCE_KEY', '"),
        P('      WORDPRESS_NONCE_SALT: "', F(C.wp, 64), '"'),
        P("    'logged_in_salt' => '", F(C.wp, 48), "',"),
        P('AUTH_SALT="', F(C.wp, 64), '"'),
        // A salt of letters and digits only, aligned past what the generic argument rule allows.
        P("define( 'NONCE_KEY',        '", F(C.alnum, 64), "' );"),
      ],
      neg: [
        "define( 'AUTH_KEY',         'put your unique phrase here' );",
        "define( 'NONCE_SALT', getenv( 'WORDPRESS_NONCE_SALT' ) );",
        "define( 'AUTH_KEY', '{{ wordpress_auth_key_for_the_production_site }}' );",
        "define( 'SECURE_AUTH_KEY', '${WORDPRESS_SECURE_AUTH_KEY_FROM_THE_ENVIRONMENT}' );",
        "define( 'LOGGED_IN_KEY', 'this is the logged in key of the staging site' );",
        "AUTH_KEY='generateme'",
        "define( 'OAUTH_KEY', '" + F(C.wp, 64) + "' );",
        "define( 'NONCE_KEY', '" + 'a'.repeat(64) + "' );",
      ],
    },
  },
  curlUser('curl-auth-user', 'user:password given to curl -u', ' -u', {
    pos: [P('curl -u deploy:', F(C.alnum, 20), ' https://api.acme.dev/v1'), P("curl -sS --data-urlencode q=1 -X POST \\\n  -u 'ci-bot:", F(C.alnum, 16), "' https://ci.acme.dev")],
    neg: ['curl -u "$API_USER:$API_PASSWORD" https://api.acme.dev', 'curl -u admin:password http://localhost', 'curl -u deploy https://api.acme.dev', 'docker run -u 1000:1000 app'],
  }),
  curlUser('curl-auth-user-long', 'user:password given to curl --user', ' --user', {
    pos: [P("curl --user 'ci-bot:", F(C.alnum, 16), "' -X POST https://ci.acme.dev"), P('curl --url https://api.acme.dev --user=deploy:', F(C.alnum, 20))],
    neg: ['curl --user "$(cat ~/.creds)" https://api.acme.dev', 'curl --user-agent "x:y z" https://acme.dev', 'docker run --user "$(id -u):$(id -g)" app'],
  }),
];
