/**
 * Maps a violation's json_path to the text it is about, so that the editor can underline exactly
 * that value. A path that does not exist (a missing field) marks the object that should hold it.
 */
import { findNodeAtLocation, parseTree, type Node } from 'jsonc-parser';
import type { JsonPath } from '../../../shared/config/violations.js';

export interface TextRange {
  offset: number;
  length: number;
  /** False when the path was not found and an enclosing object is marked instead. */
  exact: boolean;
}

export function jsonTree(text: string): Node | undefined {
  return parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
}

export function rangeOfJsonPath(text: string, path: JsonPath, tree: Node | undefined = jsonTree(text)): TextRange | undefined {
  if (!tree) return undefined;
  for (let depth = path.length; depth >= 0; depth -= 1) {
    const node = depth === 0 ? tree : findNodeAtLocation(tree, path.slice(0, depth));
    if (node) return rangeOfNode(text, node, depth === path.length);
  }
  return undefined;
}

/**
 * A scalar is marked whole. An object or list spanning lines is marked by its key (or its opening
 * bracket), so that a problem with a whole receiver does not underline forty lines.
 */
function rangeOfNode(text: string, node: Node, exact: boolean): TextRange {
  const multiLine = (node.type === 'object' || node.type === 'array') && text.slice(node.offset, node.offset + node.length).includes('\n');
  if (!multiLine) return { offset: node.offset, length: Math.max(1, node.length), exact };
  const key = node.parent?.type === 'property' ? node.parent.children?.[0] : undefined;
  if (key) return { offset: key.offset, length: key.length, exact };
  return { offset: node.offset, length: 1, exact };
}
