import RunWalkAppModel
import RunWalkCore
import Testing

@Suite struct SettingsPageModelTests {
    @Test("a value the list lacks is shown as it is, so showing the page changes nothing")
    func keepsUnlistedValues() {
        let voice = SettingsPageModel.choices(SettingsPageModel.voices, current: "wav:/tmp/v.wav", standard: "speaker")
        #expect(voice.selected == 3 && voice.choices[3] == SettingChoice("wav:/tmp/v.wav", "wav:/tmp/v.wav"))
        let unset = SettingsPageModel.choices(SettingsPageModel.voices, current: nil, standard: "speaker")
        #expect(unset.selected == 0 && unset.choices == SettingsPageModel.voices)
        let duck = SettingsPageModel.choices(SettingsPageModel.duckLevels, current: "-12dB", standard: "-12", same: SettingsPageModel.sameDuck)
        #expect(duck.selected == 2 && duck.choices.count == 5, "-12dB is the listed -12")
        let odd = SettingsPageModel.choices(SettingsPageModel.duckLevels, current: "-9", standard: "-12", same: SettingsPageModel.sameDuck)
        #expect(odd.selected == 5)
    }

    @Test("GPS specs in parts and back", arguments: [
        ("gpsd", "gpsd", "gpsd"), ("gpsd://10.0.0.2:2948", "gpsd", "gpsd://10.0.0.2:2948"),
        ("serial:/dev/serial/by-id/usb-u-blox@4800", "serial", "serial:/dev/serial/by-id/usb-u-blox@4800"),
        ("serial:/dev/ttyACM0", "serial", "serial:/dev/ttyACM0"), ("file:/tmp/a b.gpx", "file", "file:/tmp/a b.gpx"),
    ])
    func gpsRoundTrip(spec: String, kind: String, back: String) {
        let gps = SettingsPageModel.GPS(spec: spec)
        #expect(gps.kind == kind && gps.spec == back)
    }

    @Test("switching the GPS kind to one with an empty field writes nothing yet")
    func incompleteGPS() {
        var gps = SettingsPageModel.GPS(spec: "gpsd")
        gps.kind = "file"
        #expect(gps.spec == nil)
        gps.kind = "gpsd"
        gps.gpsdAddress = "localhost:2947"
        #expect(gps.spec == "gpsd")
    }

    @Test("heart-rate choices: off, auto, the straps found (name, address, battery) and the file's address")
    func heartRate() {
        let found: [(name: String?, address: String, batteryPercent: Int?)] = [("Polar H10", "C0:FF:EE:00:12:34", 80)]
        let chosen = SettingsPageModel.heartRateChoices(current: "c0:ff:ee:00:12:34", found: found)
        #expect(chosen.choices.map(\.value) == ["off", "auto", "C0:FF:EE:00:12:34"] && chosen.selected == 2)
        #expect(chosen.choices[2].label == "Polar H10 · C0:FF:EE:00:12:34 · 80 %")
        let other = SettingsPageModel.heartRateChoices(current: "AA:BB:CC:DD:EE:FF", found: [])
        #expect(other.choices.map(\.value) == ["off", "auto", "AA:BB:CC:DD:EE:FF"] && other.selected == 2)
        #expect(SettingsPageModel.heartRateChoices(current: nil, found: []).selected == 0)
    }

    @Test("the plan's done fraction as percent and back")
    func doneFraction() throws {
        #expect(SettingsPageModel.percent(nil) == 90 && SettingsPageModel.percent(0.85) == 85)
        #expect(SettingsPageModel.fraction(85) == "0.85" && SettingsPageModel.fraction(100) == "1")
        var document = try SettingsDocument(text: "")
        try document.set("plan.done_fraction", to: SettingsPageModel.fraction(55))
        #expect(document.settings.planDoneFraction == 0.55)
    }
}
