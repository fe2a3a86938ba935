import RunWalkCore

extension SessionStatus.GPS {
    /// The GPS state in the words every front end shows (`GPSStateText`): `GPS fix ±4 m, 9 sats`,
    /// `No GPS fix yet`, `GPS lost for 0:12`, `GPS: gpsd has no receiver`.
    public var text: String {
        let coreState: GPSStateText.State = switch state {
        case .noFix: .noFix
        case .fix: .fix
        case .lost: .lost
        }
        return GPSStateText.line(coreState, accuracyMetres: accuracyMetres, satellites: satellites,
                                 lostForSeconds: lostForSeconds, problem: problem)
    }
}
