// Code hosts, CI and package registries.
import { C, F, P, prefixed } from './dsl.mjs';

const gh = (id, description, prefix) =>
  prefixed(id, description, prefix, [['alnum', 36]], {
    pos: [P('GITHUB_TOKEN=', prefix + F(C.alnum, 36)), P('git clone https://x-access-token:', prefix + F(C.alnum, 36), '@github.com/o/r.git')],
    neg: [prefix + F(C.alnum, 20), prefix + F(C.alnum, 40), prefix + 'x'.repeat(36)],
  });

const gl = (id, description, prefix, body, value) =>
  prefixed(id, description, prefix, body, {
    pos: [P('GITLAB_TOKEN=', prefix + value())],
    neg: [prefix + 'short', prefix + 'x'.repeat(value().length)],
  });

export default [
  gh('github-pat', 'GitHub personal access token (classic, ghp_)', 'ghp_'),
  gh('github-oauth-token', 'GitHub OAuth access token (gho_)', 'gho_'),
  gh('github-user-to-server-token', 'GitHub App user-to-server token (ghu_)', 'ghu_'),
  gh('github-server-to-server-token', 'GitHub App installation token (ghs_)', 'ghs_'),
  gh('github-refresh-token', 'GitHub App refresh token (ghr_)', 'ghr_'),
  prefixed('github-fine-grained-pat', 'GitHub fine-grained personal access token (github_pat_)', 'github_pat_', [['word', 82]], {
    pos: [P('token: ', 'github_pat_' + F(C.alnum, 22) + '_' + F(C.alnum, 59))],
    neg: ['github_pat_' + F(C.alnum, 30)],
  }),
  // Routable tokens (GitLab 17 on): a base64url payload of 27 to 300 characters, then a check
  // suffix, `.` and 9 base36 characters, or, versioned, `.01.` and 9 (2 of the payload's length, 7
  // of its CRC32). The legacy rule's match ends at the `.` and left the suffix in the text, or, for a
  // payload over 64 characters (the legacy rule's bound then), found nothing. Keyed on the same
  // `glpat-`: no new prefilter key. Listed before it, so a routable token's finding is named by them.
  gl('gitlab-pat-routable', 'GitLab routable personal access token (glpat-….<check>)', 'glpat-', [['b64url', 27, 300], '.', ['lownum', 9]], () => F(C.b64url, 37) + '.' + F(C.lownum, 9)),
  gl('gitlab-pat-routable-versioned', 'GitLab versioned routable personal access token (glpat-….01.<check>)', 'glpat-', [['b64url', 27, 300], '.', ['lownum', 2], '.', ['lownum', 9]], () => F(C.b64url, 120) + '.01.' + F(C.lownum, 9)),
  gl('gitlab-pat', 'GitLab personal/project/group access token (glpat-)', 'glpat-', [['b64url', 20, 300]], () => F(C.b64url, 20)),
  gl('gitlab-pipeline-trigger-token', 'GitLab pipeline trigger token (glptt-)', 'glptt-', [['hex', 40]], () => F(C.hex, 40)),
  gl('gitlab-deploy-token', 'GitLab deploy token (gldt-)', 'gldt-', [['b64url', 20, 64]], () => F(C.b64url, 20)),
  gl('gitlab-feed-token', 'GitLab feed token (glft-)', 'glft-', [['b64url', 20, 64]], () => F(C.b64url, 20)),
  gl('gitlab-runner-auth-token', 'GitLab runner authentication token (glrt-)', 'glrt-', [['b64url', 20, 64]], () => F(C.b64url, 20)),
  gl('gitlab-oauth-app-secret', 'GitLab OAuth application secret (gloas-)', 'gloas-', [['b64url', 64]], () => F(C.b64url, 64)),
  gl('gitlab-scim-token', 'GitLab SCIM OAuth token (glsoat-)', 'glsoat-', [['b64url', 20, 64]], () => F(C.b64url, 20)),
  gl('gitlab-incoming-mail-token', 'GitLab incoming mail token (glimt-)', 'glimt-', [['b64url', 25, 64]], () => F(C.b64url, 25)),
  gl('gitlab-agent-token', 'GitLab Kubernetes agent token (glagent-)', 'glagent-', [['b64url', 50, 80]], () => F(C.b64url, 50)),
  gl('gitlab-ci-job-token', 'GitLab CI/CD job token (glcbt-)', 'glcbt-', [['b64url', 20, 80]], () => F(C.b64url, 40)),
  gl('gitlab-runner-registration-token', 'GitLab runner registration token (GR1348941…)', 'GR1348941', [['b64url', 20, 64]], () => F(C.b64url, 20)),
  prefixed('bitbucket-app-password', 'Bitbucket app password (ATBB…)', 'ATBB', [['alnum', 32]], {
    pos: [P('BITBUCKET_APP_PASSWORD=', 'ATBB' + F(C.alnum, 32))],
    neg: ['ATBB' + F(C.alnum, 10)],
  }),
  prefixed('atlassian-api-token', 'Atlassian (Jira, Confluence) API token (ATATT3…)', 'ATATT3', [['b64urle', 150, 260]], {
    pos: [P('JIRA_API_TOKEN=', 'ATATT3' + F(C.b64url, 186))],
    neg: ['ATATT3' + F(C.b64url, 40)],
  }, { entropy: 4.0 }),
  prefixed('npm-access-token', 'npm access token (npm_)', 'npm_', [['alnum', 36]], {
    pos: [P('//registry.npmjs.org/:_authToken=', 'npm_' + F(C.alnum, 36))],
    neg: ['npm_' + F(C.alnum, 12), 'npm_config_registry=https://registry.npmjs.org'],
  }),
  prefixed('pypi-upload-token', 'PyPI upload token', ['pypi-AgEIcHlwaS5vcmc', 'pypi-AgENdGVzdC5weXBpLm9yZw'], [['b64url', 50, 300]], {
    pos: [P('password = ', 'pypi-AgEIcHlwaS5vcmc' + F(C.b64url, 150))],
    neg: ['pypi-AgEIcHlwaS5vcmc' + F(C.b64url, 20)],
  }),
  prefixed('rubygems-api-key', 'RubyGems API key', 'rubygems_', [['hex', 48]], {
    pos: [P('GEM_HOST_API_KEY=', 'rubygems_' + F(C.hex, 48))],
    neg: ['rubygems_' + F(C.hex, 20)],
  }),
  prefixed('nuget-api-key', 'NuGet API key', 'oy2', [['lownum', 43]], {
    pos: [P('nuget push -k ', 'oy2' + F(C.lownum, 43))],
    neg: ['oy2' + F(C.lownum, 20)],
  }, { entropy: 3.5 }),
  prefixed('docker-hub-pat', 'Docker Hub personal access token', 'dckr_pat_', [['b64url', 27]], {
    pos: [P('DOCKER_PASSWORD=', 'dckr_pat_' + F(C.b64url, 27))],
    neg: ['dckr_pat_' + F(C.b64url, 10)],
  }),
  prefixed('clojars-api-token', 'Clojars deploy token', 'CLOJARS_', [['lownum', 60]], {
    pos: [P('CLOJARS_PASSWORD=', 'CLOJARS_' + F(C.lownum, 60))],
    neg: ['CLOJARS_' + F(C.lownum, 20)],
  }),
  prefixed('databricks-token', 'Databricks personal access token', 'dapi', [['hex', 32], ['dashdigit', 0, 2]], {
    pos: [P('DATABRICKS_TOKEN=', 'dapi' + F(C.hex, 32))],
    neg: ['dapi' + F(C.hex, 16), 'dapiClient'],
  }, { after: 'alnum' }),
  prefixed('postman-api-key', 'Postman API key', 'PMAK-', [['hex', 24], '-', ['hex', 34]], {
    pos: [P('POSTMAN_API_KEY=', 'PMAK-' + F(C.hex, 24) + '-' + F(C.hex, 34))],
    neg: ['PMAK-' + F(C.hex, 24)],
  }),
  prefixed('prefect-api-key', 'Prefect Cloud API key', 'pnu_', [['alnum', 36]], {
    pos: [P('PREFECT_API_KEY=', 'pnu_' + F(C.alnum, 36))],
    neg: ['pnu_' + F(C.alnum, 10)],
  }),
  prefixed('readme-api-key', 'ReadMe API key', 'rdme_', [['lownum', 70]], {
    pos: [P('README_API_KEY=', 'rdme_' + F(C.lownum, 70))],
    neg: ['rdme_' + F(C.lownum, 20)],
  }),
  prefixed('sourcegraph-access-token', 'Sourcegraph access token', 'sgp_', [['word', 40, 80]], {
    pos: [P('SRC_ACCESS_TOKEN=', 'sgp_' + F(C.hex, 16) + '_' + F(C.hex, 40))],
    neg: ['sgp_' + F(C.hex, 10)],
  }, { entropy: 3.0 }),
  prefixed('frameio-api-token', 'Frame.io API token', 'fio-u-', [['b64urle', 64]], {
    pos: [P('FRAMEIO_TOKEN=', 'fio-u-' + F(C.b64url, 64))],
    neg: ['fio-u-' + F(C.b64url, 20)],
  }),
  prefixed('typeform-api-token', 'Typeform personal access token', 'tfp_', [['dotted', 59]], {
    pos: [P('TYPEFORM_TOKEN=', 'tfp_' + F(C.b64url, 59))],
    neg: ['tfp_' + F(C.b64url, 20)],
  }),
  prefixed('contentful-pat', 'Contentful personal access token', 'CFPAT-', [['b64url', 43]], {
    pos: [P('CONTENTFUL_MANAGEMENT_TOKEN=', 'CFPAT-' + F(C.b64url, 43))],
    neg: ['CFPAT-' + F(C.b64url, 12)],
  }),
  prefixed('figma-pat', 'Figma personal access token', 'figd_', [['b64url', 40]], {
    pos: [P('FIGMA_TOKEN=', 'figd_' + F(C.b64url, 40))],
    neg: ['figd_' + F(C.b64url, 10)],
  }),
  prefixed('linear-api-key', 'Linear API key', 'lin_api_', [['alnum', 40]], {
    pos: [P('LINEAR_API_KEY=', 'lin_api_' + F(C.alnum, 40))],
    neg: ['lin_api_' + F(C.alnum, 10)],
  }),
  prefixed('notion-integration-token', 'Notion integration token (ntn_)', 'ntn_', [['alnum', 46]], {
    pos: [P('NOTION_TOKEN=', 'ntn_' + F(C.digit, 11) + F(C.alnum, 35))],
    neg: ['ntn_' + F(C.alnum, 12)],
  }),
  prefixed('airtable-pat', 'Airtable personal access token', 'pat', [['alnum', 14], '.', ['hex', 64]], {
    pos: [P('AIRTABLE_TOKEN=', 'pat' + F(C.alnum, 14) + '.' + F(C.hex, 64))],
    neg: ['pattern.' + F(C.hex, 64), 'path/to/file'],
  }),
  prefixed('onepassword-service-account-token', '1Password service account token', 'ops_eyJ', [['b64e', 250, 2000]], {
    pos: [P('OP_SERVICE_ACCOUNT_TOKEN=', 'ops_eyJ' + F(C.b64, 300))],
    neg: ['ops_eyJ' + F(C.b64, 40)],
  }, { entropy: 4.0 }),
  prefixed('age-secret-key', 'age encryption secret key', 'AGE-SECRET-KEY-1', [['bech32', 58]], {
    pos: [P('# created: 2024-01-01\n', 'AGE-SECRET-KEY-1' + F(C.bech32, 58))],
    neg: ['AGE-SECRET-KEY-1' + F(C.bech32, 20)],
  }),
  // SonarQube: user (squ_), project analysis (sqp_) and global analysis (sqa_) tokens.
  prefixed('sonarqube-token', 'SonarQube token (squ_, sqp_, sqa_)', ['squ_', 'sqp_', 'sqa_'], [['hex', 40]], {
    pos: [P('SONAR_TOKEN=', 'squ_' + F(C.hex, 40)), P('sonar.token=', 'sqp_' + F(C.hex, 40))],
    neg: ['squ_' + F(C.hex, 20), 'sqa_' + F(C.alpha, 40)],
  }, { entropy: 3.0 }),
  prefixed('buildkite-api-token', 'Buildkite API access token (bkua_)', 'bkua_', [['hex', 40]], {
    pos: [P('BUILDKITE_API_TOKEN=', 'bkua_' + F(C.hex, 40))],
    neg: ['bkua_' + F(C.hex, 16)],
  }, { entropy: 3.0 }),
  prefixed('circleci-personal-token', 'CircleCI personal API token (CCIPAT_)', 'CCIPAT_', [['alnum', 22], '_', ['hex', 40]], {
    pos: [P('CIRCLECI_TOKEN=', 'CCIPAT_' + F(C.alnum, 22) + '_' + F(C.hex, 40))],
    neg: ['CCIPAT_' + F(C.alnum, 22)],
  }, { entropy: 3.0 }),
];
