// The bundled sample project (web/sample/): a small order service with a planted FAKE secret, a
// `.env` the never-send rules exclude, and a large generated catalog. The secret is assembled
// at load time (planted.mjs), so the repository never contains a live-looking key; it is derived
// from a fixed seed so every load (and every fingerprint) is the same.

import { plantedDbPassword, plantedSecret } from './planted.mjs';

// Vite's glob skips dotfiles, so those are imported by name.
import dotEnv from '../sample/.env?raw';
import dotGitignore from '../sample/.gitignore?raw';

const raw: Record<string, string> = {
  ...(import.meta.glob('../sample/**/*', { query: '?raw', import: 'default', eager: true }) as Record<string, string>),
  '../sample/.env': dotEnv,
  '../sample/.gitignore': dotGitignore,
};

/** A file of the sample, ready for indexing. */
export interface SampleFile {
  path: string;
  text: string;
}

/** The large generated file: ~1.3 MB of catalog rows, above the builder's 1 MiB default. */
function catalogRows(): string {
  const words = ['Espresso', 'Latte', 'Mug', 'Kettle', 'Grinder', 'Filter', 'Scale', 'Tamper', 'Carafe', 'Beans', 'Tray', 'Spoon'];
  const rows: string[] = [];
  for (let i = 2; i <= 12_000; i++) {
    const name = `${words[i % words.length]} ${words[(i * 7) % words.length]} #${i}`;
    rows.push(`  { sku: 'SKU-${String(i).padStart(5, '0')}', name: '${name}', price: { amount: ${(i * 37) % 9000 + 250}, currency: 'EUR' }, weightGrams: ${(i * 13) % 2000 + 50} },`);
  }
  return rows.join('\n');
}

/** The sample's files with the secret planted and the catalog generated, sorted by path. */
export function loadSampleProject(): SampleFile[] {
  const secret = plantedSecret();
  const dbPassword = plantedDbPassword();
  const files: SampleFile[] = [];
  for (const [key, text] of Object.entries(raw)) {
    const path = key.replace(/^\.\.\/sample\//, '');
    let t = text.replaceAll('__PLANTED_SECRET__', secret).replaceAll('__PLANTED_DB_PASSWORD__', dbPassword);
    if (path === 'src/data/catalog.ts') t = t.replace('  // @rows', catalogRows());
    files.push({ path, text: t });
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** What the sample is set up to show, used to prefill the form. */
export const SAMPLE_DEFAULTS = {
  intent: 'Add a GOLD20 discount for gold-tier customers and make sure totals round to whole cents.',
  targets: ['src/services/order-service.ts'],
  symbols: [] as string[],
};
