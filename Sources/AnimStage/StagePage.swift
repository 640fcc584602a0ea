// StagePage: the page as served: the embedded index.html with its token, its title and the
// stage's `<svg>` at the instant served, so that the page shows the scene before its script
// connects (and a test can read a frozen instant from the DOM).

package enum StagePage {
  /// index.html filled in; the token and title escaped for HTML.
  package static func html(token: String, title: String, svg: String) -> String {
    let template = StageAssets.files["index.html"] ?? ""
    return
      template
      .replacing("{{token}}", with: StageEscaping.attribute(token))
      .replacing("{{title}}", with: StageEscaping.text(title))
      .replacing("{{svg}}", with: svg) + "\n"
  }
}
