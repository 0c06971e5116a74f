// The token benchmark's evaluation corpus: the "evaluation" side of build/calibration/corpus.mjs,
// i.e. real files from installed packages that the estimator's calibration never saw (the split is
// by file, fixed by path; translations are assigned by hand so both sides cover the same scripts).
import { loadCorpus, CATEGORIES } from '../../build/calibration/corpus.mjs';

export { CATEGORIES };

/** `{ category, name, text }[]` of the evaluation side. `root` is the package root. */
export function tokensCorpus(root) {
  return loadCorpus('evaluation', root);
}
