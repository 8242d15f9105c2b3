/// Examples of chapter 2 ("Language Overview") of the YAML 1.2.2 specification, as the spec prints them:
/// the reader must read each as ruamel.yaml does, or refuse it (anchors, tags, complex keys, several
/// documents: what template files have no use for).
enum YAMLSpecExamples {
    static let all: [String] = [
        // 2.1 Sequence of Scalars
        #"""
        - Mark McGwire
        - Sammy Sosa
        - Ken Griffey
        """#,
        // 2.2 Mapping Scalars to Scalars
        #"""
        hr:  65    # Home runs
        avg: 0.278 # Batting average
        rbi: 147   # Runs Batted In
        """#,
        // 2.3 Mapping Scalars to Sequences
        #"""
        american:
        - Boston Red Sox
        - Detroit Tigers
        - New York Yankees
        national:
        - New York Mets
        - Chicago Cubs
        - Atlanta Braves
        """#,
        // 2.4 Sequence of Mappings
        #"""
        -
          name: Mark McGwire
          hr:   65
          avg:  0.278
        -
          name: Sammy Sosa
          hr:   63
          avg:  0.288
        """#,
        // 2.5 Sequence of Sequences
        #"""
        - [name        , hr, avg  ]
        - [Mark McGwire, 65, 0.278]
        - [Sammy Sosa  , 63, 0.288]
        """#,
        // 2.6 Mapping of Mappings
        #"""
        Mark McGwire: {hr: 65, avg: 0.278}
        Sammy Sosa: {
            hr: 63,
            avg: 0.288,
         }
        """#,
        // 2.7 Two Documents in a Stream
        #"""
        # Ranking of 1998 home runs
        ---
        - Mark McGwire
        - Sammy Sosa
        - Ken Griffey

        # Team ranking
        ---
        - Chicago Cubs
        - St Louis Cardinals
        """#,
        // 2.8 Play by Play Feed
        #"""
        ---
        time: 20:03:20
        player: Sammy Sosa
        action: strike (miss)
        ...
        ---
        time: 20:03:47
        player: Sammy Sosa
        action: grand slam
        ...
        """#,
        // 2.9 Single Document with Two Comments
        #"""
        ---
        hr: # 1998 hr ranking
        - Mark McGwire
        - Sammy Sosa
        # 1998 rbi ranking
        rbi:
        - Sammy Sosa
        - Ken Griffey
        """#,
        // 2.10 Node for "Sammy Sosa" appears twice in this document
        #"""
        ---
        hr:
        - Mark McGwire
        # Following node labeled SS
        - &SS Sammy Sosa
        rbi:
        - *SS # Subsequent occurrence
        - Ken Griffey
        """#,
        // 2.11 Mapping between Sequences
        #"""
        ? - Detroit Tigers
          - Chicago cubs
        : - 2001-07-23

        ? [ New York Yankees,
            Atlanta Braves ]
        : [ 2001-07-02, 2001-08-12,
            2001-08-14 ]
        """#,
        // 2.12 Compact Nested Mapping
        #"""
        ---
        # Products purchased
        - item    : Super Hoop
          quantity: 1
        - item    : Basketball
          quantity: 4
        - item    : Big Shoes
          quantity: 1
        """#,
        // 2.13 In literals, newlines are preserved
        #"""
        # ASCII Art
        --- |
          \//||\/||
          // ||  ||__
        """#,
        // 2.14 In the folded scalars, newlines become spaces
        #"""
        --- >
          Mark McGwire's
          year was crippled
          by a knee injury.
        """#,
        // 2.15 Folded newlines are preserved for "more indented" and blank lines
        #"""
        --- >
         Sammy Sosa completed another
         fine season with great stats.

           63 Home Runs
           0.288 Batting Average

         What a year!
        """#,
        // 2.16 Indentation determines scope
        #"""
        name: Mark McGwire
        accomplishment: >
          Mark set a major league
          home run record in 1998.
        stats: |
          65 Home Runs
          0.278 Batting Average
        """#,
        // 2.17 Quoted Scalars
        #"""
        unicode: "Sosa did fine.\u263A"
        control: "\b1998\t1999\t2000\n"
        hex esc: "\x0d\x0a is \r\n"

        single: '"Howdy!" he cried.'
        quoted: ' # Not a ''comment''.'
        tie-fighter: '|\-*-/|'
        """#,
        // 2.18 Multi-line Flow Scalars
        #"""
        plain:
          This unquoted scalar
          spans many lines.

        quoted: "So does this
          quoted scalar.\n"
        """#,
        // 2.19 Integers
        #"""
        canonical: 12345
        decimal: +12345
        octal: 0o14
        hexadecimal: 0xC
        """#,
        // 2.20 Floating Point
        #"""
        canonical: 1.23015e+3
        exponential: 12.3015e+02
        fixed: 1230.15
        negative infinity: -.inf
        not a number: .nan
        """#,
        // 2.21 Miscellaneous
        #"""
        null:
        booleans: [ true, false ]
        string: '012345'
        """#,
        // 2.22 Timestamps
        #"""
        canonical: 2001-12-15T02:59:43.1Z
        iso8601: 2001-12-14t21:59:43.10-05:00
        spaced: 2001-12-14 21:59:43.10 -5
        date: 2002-12-14
        """#,
        // 2.23 Various Explicit Tags
        #"""
        ---
        not-date: !!str 2002-04-28

        picture: !!binary |
         R0lGODlhDAAMAIQAAP//9/X
         17unp5WZmZgAAAOfn515eXv
         Pz7Y6OjuDg4J+fn5OTk6enp
         56enmleECcgggoBADs=

        application specific tag: !something |
         The semantics of the tag
         above may be different for
         different documents.
        """#,
        // 2.25 Unordered Sets
        #"""
        # Sets are represented as a
        # Mapping where each key is
        # associated with a null value
        --- !!set
        ? Mark McGwire
        ? Sammy Sosa
        ? Ken Griffey
        """#,
        // 2.26 Ordered Mappings
        #"""
        # Ordered maps are represented as
        # A sequence of mappings, with
        # each mapping having one key
        --- !!omap
        - Mark McGwire: 65
        - Sammy Sosa: 63
        - Ken Griffey: 58
        """#,
        // 2.28 Log File
        #"""
        ---
        Time: 2001-11-23 15:01:42 -5
        User: ed
        Warning:
          This is an error message
          for the log file
        ---
        Time: 2001-11-23 15:02:31 -5
        User: ed
        Warning:
          A slightly different error
          message.
        """#,
    ]
}
