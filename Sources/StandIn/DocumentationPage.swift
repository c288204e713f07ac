/// The HTML page the service shows for any unknown method under its base (status 200).
enum DocumentationPage {
    static let html = """
    <!DOCTYPE html>
    <html lang="en">
    <head><meta charset="utf-8"/><title>API Documentation - Earthquake Catalog</title></head>
    <body>
    <h1>API Documentation - Earthquake Catalog</h1>
    <p>This is an implementation of the FDSN Event Web Service Specification (a local stand-in
    for https://earthquake.usgs.gov/fdsnws/event/1/, for tests and demos).</p>
    <h2 id="url">URL</h2>
    <p>/fdsnws/event/1/[METHOD[?PARAMETERS]]</p>
    <h2 id="methods">Methods</h2>
    <dl>
    <dt>application.json</dt><dd>request known enumerated parameter values for the interface.</dd>
    <dt>catalogs</dt><dd>request available catalogs.</dd>
    <dt>contributors</dt><dd>request available contributors.</dd>
    <dt>count</dt><dd>to perform a count on a data request (plain text, geojson or xml).</dd>
    <dt>query</dt><dd>to submit a data request (geojson or csv).</dd>
    <dt>version</dt><dd>request full service version number.</dd>
    </dl>
    </body>
    </html>

    """
}
