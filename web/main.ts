import { createCtxgate, isCtxgateError } from '../src/index.ts';

const status = document.querySelector<HTMLParagraphElement>('#core-status')!;
const text = document.querySelector<HTMLTextAreaElement>('#probe-text')!;
const crc = document.querySelector<HTMLOutputElement>('#probe-crc')!;

try {
  const cg = await createCtxgate();
  status.textContent = `Core ready (${cg.mode}).`;
  const update = async (): Promise<void> => {
    const value = await cg.crc32(text.value);
    crc.value = value.toString(16).padStart(8, '0');
  };
  text.addEventListener('input', () => void update());
  await update();
} catch (error) {
  status.textContent = isCtxgateError(error) ? `${error.code}: ${error.message}` : String(error);
}
