import Foundation
import QuakeCatalog

/// The admin interface's operations on detail answers and product files.
extension StandInState {
    /// `POST /admin/details`: serves the products of a detail answer (a Feature with
    /// `properties.products`, or a FeatureCollection of them) for its ids; content URLs under
    /// `https://earthquake.usgs.gov/product/` are served by the stand-in.
    func addDetails(_ body: Data) throws(AdminError) -> Data {
        do { try details.add(body) } catch { throw AdminError(status: 400, message: "the body is \(error.description)") }
        struct Added: Encodable { var details: Int }
        return AdminJSON.encode(Added(details: details.count))
    }

    /// `POST /admin/products/PATH`: serves the body as received at `/product/PATH`.
    func addProductFile(_ path: String, _ body: Data) throws(AdminError) -> Data {
        do { try details.addFile(body, at: path) } catch { throw AdminError(status: 400, message: error.description) }
        struct Added: Encodable { var path: String; var bytes: Int }
        return AdminJSON.encode(Added(path: "/product/" + path, bytes: body.count))
    }
}
