// TS/JS facts from the TypeScript compiler API's syntax tree (no program, no type check: one
// `ts.createSourceFile` per file, so a file re-parses alone). The seed's rules: exports from
// export function/class/const/type/interface/enum, export { x }, export default; imports as named,
// default, namespace, require(), dynamic import(), side-effect and re-exports; a local name is
// unused when no identifier outside import statements refers to it.
import * as ts from 'typescript';
import type { FileFacts, ImportedName, ParsedExport, ParsedImport } from './graph-model';

export const TS_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];

function scriptKind(fileName: string): ts.ScriptKind {
  if (fileName.endsWith('.tsx')) return ts.ScriptKind.TSX;
  if (fileName.endsWith('.jsx')) return ts.ScriptKind.JSX;
  if (/\.[mc]?js$/.test(fileName)) return ts.ScriptKind.JS;
  return ts.ScriptKind.TS;
}

const hasModifier = (node: ts.Node, kind: ts.SyntaxKind) =>
  ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === kind);

function bindingNames(name: ts.BindingName, out: string[]): void {
  if (ts.isIdentifier(name)) out.push(name.text);
  else for (const el of name.elements) if (!ts.isOmittedExpression(el)) bindingNames(el.name, out);
}

/** Identifiers that name a member or key rather than refer to a binding in scope. */
function isMemberName(node: ts.Identifier, parent: ts.Node): boolean {
  if (ts.isPropertyAccessExpression(parent) || ts.isQualifiedName(parent)) return (parent as ts.PropertyAccessExpression).name === node || (parent as ts.QualifiedName).right === node;
  if (ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent) || ts.isMethodDeclaration(parent) || ts.isPropertySignature(parent) || ts.isMethodSignature(parent) || ts.isGetAccessor(parent) || ts.isSetAccessor(parent) || ts.isEnumMember(parent) || ts.isJsxAttribute(parent)) {
    return parent.name === node;
  }
  if (ts.isBindingElement(parent)) return parent.propertyName === node;
  return false;
}

const isRequireCall = (node: ts.Node): node is ts.CallExpression =>
  ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'require' && node.arguments.length === 1 && ts.isStringLiteralLike(node.arguments[0]);

export function parseTypeScript(text: string, fileName: string): FileFacts {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, scriptKind(fileName));
  const exports: ParsedExport[] = [];
  const imports: ParsedImport[] = [];
  /** Kinds of the file's top-level declarations, for `export { x }`. */
  const declared = new Map<string, string>();
  const localExports: { name: string; local: string }[] = [];
  const used = new Set<string>();

  const addExport = (name: string, kind: string) => {
    if (!exports.some((e) => e.name === name)) exports.push({ name, kind });
  };

  for (const st of sf.statements) {
    const exported = hasModifier(st, ts.SyntaxKind.ExportKeyword);
    const isDefault = hasModifier(st, ts.SyntaxKind.DefaultKeyword);
    const declare = (name: string | undefined, kind: string) => {
      if (name) declared.set(name, kind);
      if (exported) addExport(isDefault ? (name ?? 'default') : (name ?? 'default'), isDefault ? 'default' : kind);
    };
    if (ts.isFunctionDeclaration(st)) declare(st.name?.text, 'function');
    else if (ts.isClassDeclaration(st)) declare(st.name?.text, 'class');
    else if (ts.isInterfaceDeclaration(st)) declare(st.name.text, 'interface');
    else if (ts.isTypeAliasDeclaration(st)) declare(st.name.text, 'type');
    else if (ts.isEnumDeclaration(st)) declare(st.name.text, 'enum');
    else if (ts.isModuleDeclaration(st) && ts.isIdentifier(st.name)) declare(st.name.text, 'namespace');
    else if (ts.isVariableStatement(st)) {
      const names: string[] = [];
      for (const d of st.declarationList.declarations) bindingNames(d.name, names);
      for (const n of names) declare(n, 'const');
    } else if (ts.isExportAssignment(st)) addExport('default', 'default');
    else if (ts.isExportDeclaration(st)) {
      const clause = st.exportClause;
      if (st.moduleSpecifier && ts.isStringLiteralLike(st.moduleSpecifier)) {
        const module = st.moduleSpecifier.text;
        let names: ImportedName[];
        if (!clause) names = [{ imported: '*', local: '*' }];
        else if (ts.isNamespaceExport(clause)) names = [{ imported: '*', local: clause.name.text }];
        else names = clause.elements.map((el) => ({ imported: (el.propertyName ?? el.name).text, local: el.name.text }));
        imports.push({ module, names, unused: [], reexport: true });
      } else if (clause && ts.isNamedExports(clause)) {
        for (const el of clause.elements) localExports.push({ name: el.name.text, local: (el.propertyName ?? el.name).text });
      }
    } else if (ts.isImportDeclaration(st) && ts.isStringLiteralLike(st.moduleSpecifier)) {
      const names: ImportedName[] = [];
      const clause = st.importClause;
      if (clause?.name) names.push({ imported: 'default', local: clause.name.text });
      const nb = clause?.namedBindings;
      if (nb && ts.isNamespaceImport(nb)) names.push({ imported: '*', local: nb.name.text });
      else if (nb) for (const el of nb.elements) names.push({ imported: (el.propertyName ?? el.name).text, local: el.name.text });
      imports.push({ module: st.moduleSpecifier.text, names, unused: [] });
    } else if (ts.isImportEqualsDeclaration(st) && ts.isExternalModuleReference(st.moduleReference) && ts.isStringLiteralLike(st.moduleReference.expression)) {
      imports.push({ module: st.moduleReference.expression.text, names: [{ imported: '*', local: st.name.text }], unused: [] });
      if (exported) addExport(st.name.text, 'const');
    }
  }
  for (const e of localExports) addExport(e.name, e.local === 'default' ? 'default' : (declared.get(e.local) ?? 'const'));

  // Uses, dynamic import() and require() anywhere in the file.
  const visit = (node: ts.Node, parent: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isImportEqualsDeclaration(node)) return;
    if (ts.isExportDeclaration(node) && node.moduleSpecifier) return;
    if (ts.isIdentifier(node)) {
      if (!isMemberName(node, parent)) used.add(node.text);
      return;
    }
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const arg = node.arguments[0];
      if (arg && ts.isStringLiteralLike(arg)) imports.push({ module: arg.text, names: [], unused: [] });
    } else if (isRequireCall(node)) {
      const module = (node.arguments[0] as ts.StringLiteralLike).text;
      const names: ImportedName[] = [];
      if (ts.isVariableDeclaration(parent) && parent.initializer === node) {
        if (ts.isIdentifier(parent.name)) names.push({ imported: '*', local: parent.name.text });
        else if (ts.isObjectBindingPattern(parent.name)) {
          for (const el of parent.name.elements) {
            if (ts.isIdentifier(el.name)) names.push({ imported: el.propertyName && ts.isIdentifier(el.propertyName) ? el.propertyName.text : el.name.text, local: el.name.text });
          }
        }
      }
      imports.push({ module, names, unused: [] });
    }
    // A require()'s own binding is its declaration, not a use.
    if (ts.isVariableDeclaration(node) && node.initializer && isRequireCall(node.initializer)) {
      visit(node.initializer, node);
      if (node.type) visit(node.type, node);
      return;
    }
    ts.forEachChild(node, (child) => visit(child, node));
  };
  visit(sf, sf);
  for (const imp of imports) {
    if (!imp.reexport) imp.unused = imp.names.map((n) => n.local).filter((local) => !used.has(local));
  }
  return { language: 'ts', exports, imports };
}
