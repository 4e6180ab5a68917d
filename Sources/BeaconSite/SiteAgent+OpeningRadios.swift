// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import HCI
import HCITransport

/// Why a host's radios could not be opened.
public enum SiteRadioOpenError: Error, Sendable, CustomStringConvertible, TermedTextConvertible {
    /// A radio's adapter is not one `AdapterSpec` reads (the site file's checks let it through
    /// only if it looked like one).
    case adapter(radio: SiteRadio.ID, TransportError)
    /// Opening failed; the radios opened before it were closed again.
    case opening(AdapterOpenError)

    /// ``termedText`` in words.
    public var description: String { termedText.description }

    /// What failed, its advice's terms kept for the front end to name.
    public var termedText: TermedText {
        switch self {
        case .adapter(let radio, let error): "radio \(radio): \(error)"
        case .opening(let error): error.termedText
        }
    }
}

extension SiteAgent.Radio {
    /// Opens `radios` (the radios of this host, their adapters as `-i` names them) with
    /// `opening`, all or none: a radio that fails to open closes the ones already open.
    /// `positioned`: whether the radios' positions are known (a site file's), so that the virtual
    /// air hears their beacons from there; an agent started from flags alone does not know them.
    public static func open(_ radios: [SiteRadio], with opening: AdapterOpening, positioned: Bool = true) throws(SiteRadioOpenError) -> [SiteAgent.Radio] {
        var specs: [AdapterSpec] = []
        for radio in radios {
            do throws(TransportError) { specs.append(try AdapterSpec(parsing: radio.adapterSpecText)) } catch {
                throw .adapter(radio: radio.id, error)
            }
        }
        do throws(AdapterOpenError) {
            let connections = try opening.open(specs)
            return zip(radios, connections).map { SiteAgent.Radio(id: $0.id, connection: $1, position: positioned ? $0.position : nil) }
        } catch {
            throw .opening(error)
        }
    }
}
