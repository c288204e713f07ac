/// The magnitude classes every picture of a bundle uses: `style.json`, `preview.html` and
/// `serve`'s legend draw quakes in these colours.
enum MagnitudeLegend {
    /// One class: magnitudes from `from` (inclusive) up to the next class's `from`.
    struct Band {
        let from: Double
        let colour: String
        let label: String
    }

    /// Lowest class first.
    static let bands: [Band] = [
        Band(from: -10, colour: "#7b8cde", label: "<3"),
        Band(from: 3, colour: "#4cc9f0", label: "3–4"),
        Band(from: 4, colour: "#c8e65c", label: "4–5"),
        Band(from: 5, colour: "#ffc300", label: "5–6"),
        Band(from: 6, colour: "#ff7b00", label: "6–7"),
        Band(from: 7, colour: "#ff2d2d", label: "≥7"),
    ]

    /// The colour of quakes whose magnitude is not known.
    static let unknownColour = "#9aa5b1"
    /// The colour of summaries of hidden quakes (the `clusters` layer).
    static let clusterColour = "#778899"
    /// The map's background where there is no basemap.
    static let background = "#0d1b2a"
}
