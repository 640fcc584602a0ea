// JSONEdit: one field of a JSON document replaced, for the tests and fuzzers that check that a
// corrupted snapshot or saved session is refused with a sentence that names the field.

import Foundation

/// Edits of a document as `JSONSerialization` reads it (dictionaries, arrays, numbers...).
public enum JSONEdit {
  /// `document` with the value at `path` (dictionary keys and array indices, outermost
  /// first) replaced by `value`; a missing key is added. An index out of range, or a key
  /// where the document has an array, is a mistake in the test and traps.
  public static func replacing(at path: [Any], with value: Any, in document: Any) -> Any {
    replacing(at: path[...], with: value, in: document)
  }

  private static func replacing(at path: ArraySlice<Any>, with value: Any, in node: Any) -> Any {
    guard let key = path.first else { return value }
    if let key = key as? String, var dictionary = node as? [String: Any] {
      dictionary[key] = replacing(at: path.dropFirst(), with: value, in: dictionary[key] as Any)
      return dictionary
    }
    var array = node as! [Any]
    let index = key as! Int
    array[index] = replacing(at: path.dropFirst(), with: value, in: array[index])
    return array
  }
}
