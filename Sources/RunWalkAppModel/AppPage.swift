/// The app's pages one can open at start (`runwalk-app --page NAME`, for launchers and tests).
public enum AppPage: String, CaseIterable, Equatable, Sendable {
    case start, plans, workouts, settings, history

    /// `--page NAME` taken out of the arguments (the rest go to `AppOptions`); an unknown
    /// name or a missing value is a one-line problem (exit 2).
    public static func take(from arguments: [String]) throws(AppOptions.Problem) -> (page: AppPage?, rest: [String]) {
        var rest: [String] = []
        var page: AppPage?
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            let text: String
            if argument == "--page" {
                guard index < arguments.endIndex, !arguments[index].hasPrefix("--") else {
                    throw AppOptions.Problem(description: "runwalk-app: --page needs a value (\(names))")
                }
                text = arguments[index]
                index += 1
            } else if argument.hasPrefix("--page=") {
                text = String(argument.dropFirst("--page=".count))
            } else {
                rest.append(argument)
                continue
            }
            guard let named = AppPage(rawValue: text) else {
                throw AppOptions.Problem(description: "runwalk-app: --page: no page named \"\(text)\" (\(names))")
            }
            page = named
        }
        return (page, rest)
    }

    /// "start, plans, workouts, settings or history".
    static var names: String {
        let all = allCases.map(\.rawValue)
        return all.dropLast().joined(separator: ", ") + " or " + (all.last ?? "")
    }
}
