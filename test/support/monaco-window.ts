// The page's Monaco (monaco-setup.ts puts it on `window`) as e2e tests and benches read and drive
// it: one declaration, since every augmentation of Window must agree.
declare global {
  interface Window {
    monaco?: {
      editor: {
        getModels(): MonacoWindowModel[];
        getEditors(): {
          focus(): void;
          trigger(source: string, handler: string, payload: unknown): void;
          getDomNode(): HTMLElement | null;
          getModel(): MonacoWindowModel | null;
          setPosition(position: { lineNumber: number; column: number }): void;
          executeEdits(source: string, edits: { range: unknown; text: string }[]): boolean;
        }[];
        /** Markers of one owner ("lsp": the language servers; "typescript": Monaco's own worker). */
        getModelMarkers(filter: { owner?: string; resource?: unknown }): { message: string; severity: number; startLineNumber: number; startColumn: number; resource: { path: string } }[];
      };
    };
  }
}

interface MonacoWindowModel {
  uri: { path: string };
  getValue(): string;
  getFullModelRange(): unknown;
}

export {};
