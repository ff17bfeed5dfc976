import ArgumentParser
import TxLedger

struct KeygenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keygen",
        abstract: "Generate a vault sync key into a new file (mode 0600).",
        discussion:
            "The file holds the key as text with a checksum (TXLK1-...). Copy the file, or type its text into a file, on each of your devices. An existing file is never replaced."
    )

    @Option(help: ArgumentHelp("The key file to create.", valueName: "file")) var out: String

    func run() throws {
        try SyncKey.generate().write(toNewFile: out)
        print("wrote a new sync key to \(out) (mode 0600); keep it private and copy it to your other devices")
    }
}
