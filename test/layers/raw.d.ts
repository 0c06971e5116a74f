// Vite's `?raw` imports, used for the golden files so the tests need no file-system API.
declare module '*.txt?raw' {
  const text: string;
  export default text;
}
