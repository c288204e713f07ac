extension QuakeDetail {
    /// The summary as bundles carry it: every member always there, in a fixed order (`null`
    /// when unknown or absent), so the same detail gives the same bytes. docs/details.md.
    public var json: JSON {
        let cities: JSON = nearbyCities.map { JSON.array($0.map(\.json)) } ?? .null
        let linked: [(String, JSON)] = links.map { ($0.name, JSON.string($0.url)) }
        let missing: [JSON] = leftOut.map { JSON.object([("part", .string($0.part)), ("reason", .string($0.reason))]) }
        let members: [(String, JSON)] = [
            ("id", .string(id)),
            ("updated", Self.int(updated)),
            ("shakemap", shakeMap?.json ?? .null),
            ("pager", pager?.json ?? .null),
            ("dyfi", dyfi?.json ?? .null),
            ("moment_tensor", momentTensor?.json ?? .null),
            ("focal_mechanism", focalMechanism?.json ?? .null),
            ("origin", origin?.json ?? .null),
            ("nearby_cities", cities),
            ("tectonic_summary", Self.text(tectonicSummary)),
            ("impact", Self.text(impact)),
            ("links", .object(linked)),
            ("left_out", .array(missing)),
        ]
        return .object(members)
    }

    static func text(_ value: String?) -> JSON { value.map { .string($0) } ?? .null }
    static func int(_ value: Int?) -> JSON { value.map { .int($0) } ?? .null }
    static func int(_ value: Int64?) -> JSON { value.map { .int($0) } ?? .null }
}

extension QuakeDetail.Measure {
    var json: JSON { .object([("value", .number(value)), ("units", QuakeDetail.text(units))]) }
}

extension QuakeDetail.ShakeMap {
    var json: JSON {
        .object([
            ("source", .string(source)), ("update_time", .int(updateTime)),
            ("max_mmi", .number(maxMMI)), ("max_pga", maxPGA?.json ?? .null), ("max_pgv", maxPGV?.json ?? .null),
            ("stations", .object([("type", .string("FeatureCollection")), ("features", .array(stations.map(\.json)))])),
            ("stations_left_out", .int(stationsLeftOut)),
            ("contours", .object([("type", .string("FeatureCollection")), ("features", .array(contours.map(\.json)))])),
        ])
    }
}

extension QuakeDetail.Station {
    var json: JSON {
        .object([
            ("type", .string("Feature")),
            ("geometry", .object([("type", .string("Point")), ("coordinates", .array([.number(longitude), .number(latitude)]))])),
            ("properties", .object([
                ("code", QuakeDetail.text(code)), ("name", QuakeDetail.text(name)), ("network", QuakeDetail.text(network)),
                ("kind", QuakeDetail.text(kind)), ("intensity", .number(intensity)), ("pga", .number(pga)), ("pgv", .number(pgv)),
                ("distance_km", .number(distanceKm)),
            ])),
        ])
    }
}

extension QuakeDetail.Contour {
    var json: JSON {
        .object([
            ("type", .string("Feature")),
            ("geometry", .object([("type", .string("MultiLineString")),
                                  ("coordinates", .array(lines.map { .array($0.map { .array($0.map { JSON.number($0) }) }) }))])),
            ("properties", .object([("mmi", .number(mmi))])),
        ])
    }
}

extension QuakeDetail.Pager {
    var json: JSON {
        .object([
            ("source", .string(source)), ("update_time", .int(updateTime)),
            ("alert", QuakeDetail.text(alert)), ("fatality_alert", QuakeDetail.text(fatalityAlert)),
            ("economic_alert", QuakeDetail.text(economicAlert)),
            ("exposure", .array(exposure.map { .object([("mmi", .int($0.mmi)), ("population", .int($0.population))]) })),
        ])
    }
}

extension QuakeDetail.DYFI {
    var json: JSON {
        .object([("source", .string(source)), ("update_time", .int(updateTime)), ("responses", QuakeDetail.int(responses)),
                 ("max_mmi", .number(maxMMI))])
    }
}

extension QuakeDetail.Mechanism {
    var json: JSON {
        func axis(_ a: QuakeDetail.Axis?) -> JSON {
            a.map { .object([("azimuth", .number($0.azimuth)), ("plunge", .number($0.plunge))]) } ?? .null
        }
        return .object([
            ("source", .string(source)), ("code", .string(code)), ("update_time", .int(updateTime)),
            ("magnitude_type", QuakeDetail.text(magnitudeType)), ("magnitude", .number(magnitude)),
            ("scalar_moment", .number(scalarMoment)), ("depth_km", .number(depthKm)),
            ("percent_double_couple", .number(percentDoubleCouple)),
            ("nodal_planes", .array(nodalPlanes.map { .object([("strike", .number($0.strike)), ("dip", .number($0.dip)), ("rake", .number($0.rake))]) })),
            ("t_axis", axis(tAxis)), ("p_axis", axis(pAxis)), ("n_axis", axis(nAxis)),
            ("tensor", tensor.map { t in .object([("mrr", .number(t.mrr)), ("mtt", .number(t.mtt)), ("mpp", .number(t.mpp)),
                                                  ("mrt", .number(t.mrt)), ("mrp", .number(t.mrp)), ("mtp", .number(t.mtp))]) } ?? .null),
        ])
    }
}

extension QuakeDetail.Origin {
    var json: JSON {
        .object([
            ("source", .string(source)), ("update_time", .int(updateTime)),
            ("review_status", QuakeDetail.text(reviewStatus)), ("evaluation_status", QuakeDetail.text(evaluationStatus)),
            ("magnitude_type", QuakeDetail.text(magnitudeType)), ("magnitude_error", .number(magnitudeError)),
            ("magnitude_stations", QuakeDetail.int(magnitudeStations)), ("stations_used", QuakeDetail.int(stationsUsed)),
            ("phases_used", QuakeDetail.int(phasesUsed)), ("standard_error", .number(standardError)),
            ("azimuthal_gap", .number(azimuthalGap)), ("minimum_distance", .number(minimumDistance)),
            ("horizontal_error_km", .number(horizontalErrorKm)), ("vertical_error_km", .number(verticalErrorKm)),
            ("depth_type", QuakeDetail.text(depthType)),
        ])
    }
}

extension QuakeDetail.City {
    var json: JSON {
        .object([("name", .string(name)), ("distance_km", .number(distanceKm)), ("direction", QuakeDetail.text(direction)),
                 ("population", QuakeDetail.int(population)), ("longitude", .number(longitude)), ("latitude", .number(latitude))])
    }
}
