// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconProfiles

/// Reads site files (YAML, or JSON) into a validated ``Site``. Every problem is collected and
/// thrown together as `ProfileErrors`, each with its file, line, column, field and what is
/// allowed, as profile files' are (the profile files a site names are read by `ProfileLoader`).
public enum SiteLoader {
    /// Reads and parses the site file at `path`; profile files it names are found relative to
    /// its directory. The file named on the command line may be a pipe or a FIFO, as a profile
    /// may; `rereading` (SIGHUP) takes regular files only, since a FIFO would wait for a writer.
    public static func load(contentsOf path: String, rereading: Bool = false) throws(ProfileErrors) -> Site {
        let text: String
        switch ProfileLoader.readText(path, accepting: rereading ? .regularFiles : .regularFilesAndPipes) {
        case .success(let contents): text = contents
        case .failure(let issue): throw ProfileErrors(issues: [issue])
        }
        return try parse(text, file: path)
    }

    /// Parses the text of a site file; `file` labels locations, and its directory is where the
    /// relative paths of `profiles:` are found.
    public static func parse(_ text: String, file: String) throws(ProfileErrors) -> Site {
        var reader = SiteReader(file: file)
        let site = reader.read(text)
        let issues = reader.issues
        guard issues.isEmpty, let site else { throw ProfileErrors(issues: issues.inReadingOrder(files: [file])) }
        return site
    }

    /// `dir/site.yaml` → `dir/`; a bare name → `` (the working directory).
    static func directory(of file: String) -> String {
        guard let slash = file.lastIndex(of: "/") else { return "" }
        return String(file[...slash])
    }

    /// A path named in the site file, as it is opened and reported: absolute paths as written,
    /// others relative to the site file's directory.
    static func resolve(_ path: String, from file: String) -> String {
        path.hasPrefix("/") ? path : directory(of: file) + path
    }
}
