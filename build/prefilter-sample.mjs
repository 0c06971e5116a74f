// A small sample of ordinary text (prose, code, configuration, logs) for the byte-pair model that
// build/gen-rules.mjs uses to group keywords into SIMD prefilter buckets (when it searches afresh:
// `--repin`; otherwise the pins in prefilter-buckets.mjs hold). It steers speed only, never
// what matches: change it freely, then repin (the tables change, the findings do not).
export const SAMPLE = String.raw`
The service reads its settings from the environment when it starts, then opens a connection pool to
the database and listens for requests. Each request is checked against the access policy before any
handler runs; a request that fails the check gets a short error and nothing else. We keep the number
of moving parts small on purpose: one process, one queue, one store. When the queue is full, new work
waits instead of being dropped, and the client sees a retry hint in the response headers.
Release notes: fixed a race in the cache eviction path; the importer now accepts files with a byte
order mark; documentation for the command line options was rewritten; several dependencies updated.
Please open an issue with the steps to reproduce, the version you are running and the full output.

import { readFile } from "node:fs/promises";
import path from "node:path";
export interface Options { readonly root: string; readonly maxDepth?: number; verbose: boolean }
export async function loadConfig(file: string, options: Options): Promise<Record<string, unknown>> {
  const text = await readFile(path.join(options.root, file), "utf8");
  const parsed = JSON.parse(text) as Record<string, unknown>;
  if (options.verbose) console.log("loaded %s with %d keys", file, Object.keys(parsed).length);
  for (const [name, value] of Object.entries(parsed)) {
    if (typeof value === "string" && value.length === 0) throw new Error("empty value for " + name);
  }
  return parsed;
}
const result = items.filter((item) => item.enabled).map((item) => ({ id: item.id, label: item.title }));
export default class Queue<T> { private items: T[] = []; push(item: T): void { this.items.push(item); } }
function render(node, parent) { if (!node) return null; const el = document.createElement(node.tag); parent.appendChild(el); return el; }

def parse_args(argv=None):
    parser = argparse.ArgumentParser(description="Process the input files.")
    parser.add_argument("--output", default="out", help="where to write the results")
    parser.add_argument("--workers", type=int, default=4)
    return parser.parse_args(argv)

class Handler(BaseHandler):
    def handle(self, request):
        user = self.session.get_user(request.headers.get("X-User"))
        if user is None:
            return Response(status=401)
        return Response(json.dumps({"name": user.name, "roles": list(user.roles)}))

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)
	defer cancel()
	if err := s.store.Update(ctx, r.URL.Query().Get("id")); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	fmt.Fprintf(w, "updated %d records\n", count)
}

name: build
on:
  push:
    branches: [main]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: npm ci && npm run build && npm test
    env:
      NODE_ENV: production
      LOG_LEVEL: info
replicas: 3
resources:
  limits: { cpu: "500m", memory: "256Mi" }

{"name": "example-app", "version": "2.4.1", "private": true, "scripts": {"start": "node server.js", "lint": "eslint ."},
 "dependencies": {"express": "^4.18.2", "lodash": "^4.17.21"}, "engines": {"node": ">=18"}, "files": ["dist", "README.md"]}

[server]
host = "0.0.0.0"
port = 8080
timeout_seconds = 30
[logging]
level = "debug"
format = "json"

#!/usr/bin/env bash
set -euo pipefail
for file in "$@"; do
  if [[ -f "$file" ]]; then
    echo "processing $file"
    gzip -k "$file" && mv "$file.gz" "$OUTPUT_DIR/"
  fi
done

2023-11-02 14:03:11,482 INFO  [main] application started in 2.31 seconds (process running for 2.9)
2023-11-02 14:03:12,017 DEBUG [pool-1] acquired connection 7 from pool, active=3 idle=5
2023-11-02 14:03:15,730 WARN  [worker-2] request to /v2/orders took 1840 ms, above the threshold
127.0.0.1 - - [02/Nov/2023:14:03:16 +0000] "GET /static/app.css HTTP/1.1" 200 5120 "-" "Mozilla/5.0"

## Installation
Run the installer, then copy the example configuration and edit the values for your environment.
| option | default | description |
| --- | --- | --- |
| cache | true | keep parsed files in memory between runs |
10.0.3.7 - - [11/Feb/2024:08:15:42 +0000] "GET /api/v1/users/42?include=roles HTTP/1.1" 200 812 "-" "curl/8.4.0"
10.0.3.9 - - [11/Feb/2024:08:15:43 +0000] "POST /api/v2/orders?page=3&limit=50 HTTP/2" 201 77 "https://shop.example.org/cart" "Mozilla/5.0"
level=info ts=2024-02-11T08:15:42.311Z caller=server.go:88 msg="request completed" method=GET path=/healthz status=200 duration_ms=3
level=warn ts=2024-02-11T08:15:44.020Z caller=client.go:141 msg="retrying" attempt=2 err="connection reset by peer" elapsed=1.52s
{"timestamp":"2024-02-11T08:15:45.118Z","level":"error","service":"billing","message":"invoice not found","invoiceId":88213,"status":404}
{"status": "ok", "items": [{"id": 17, "name": "widget", "price": 9.99, "tags": ["new", "sale"]}], "total": 1, "next": null}
[2024-02-11 08:15:46] production.INFO: Job processed {"queue":"default","attempts":1,"runtime":0.218}
Feb 11 08:15:47 web-3 systemd[1]: Started Daily apt download activities.
!function(e,t){"object"==typeof exports?module.exports=t():e.lib=t()}(this,function(){var n={},r=function(e){return n[e]};return r});
var a=document.querySelectorAll(".item"),b=0;for(;b<a.length;b++)a[b].addEventListener("click",function(c){c.preventDefault()});
export const routes = [{ path: "/", component: Home }, { path: "/users/:id", component: UserDetail, meta: { auth: true } }];
<script src="/assets/index-4f2a9c.js" type="module"></script><link rel="stylesheet" href="/assets/index-81be0d.css">
app.get("/api/items/:id", async (req, res) => { const item = await db.items.findOne({ id: req.params.id }); res.json(item); });
@media (max-width: 600px) { .container { padding: 0 12px; } .nav > a:hover { color: #333; text-decoration: underline; } }
Die Konfiguration wird beim Start gelesen; Änderungen werden erst nach einem Neustart wirksam. Größe: 12 MiB.
La configuración se lee al iniciar; los cambios surten efecto tras reiniciar el servicio. Ñandú, pingüino, acción.
SELECT id, name, created_at FROM orders WHERE status = 'open' ORDER BY created_at DESC LIMIT 50;
<div class="container"><p>Hello, <strong>world</strong>!</p><a href="/docs/index.html">Read the docs</a></div>
`;
