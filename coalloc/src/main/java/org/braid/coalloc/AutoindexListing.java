package org.braid.coalloc;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads nginx's JSON directory index ({@code autoindex on; autoindex_format json;}): an array of
 * objects with {@code name}, {@code type} ({@code directory}, {@code file} or {@code other}) and,
 * for files, {@code size}. Other fields are ignored. Stateless.
 */
final class AutoindexListing {
  private static final JsonFactory JSON =
      JsonFactory.builder()
          .streamReadConstraints(
              StreamReadConstraints.builder()
                  .maxNestingDepth(8)
                  .maxNumberLength(24)
                  .maxStringLength(64 * 1024)
                  .build())
          .build();

  private AutoindexListing() {}

  /**
   * The entries of one directory.
   *
   * @throws SourceException if the answer is not such an array
   */
  static List<TreeLister.Entry> parse(InputStream in, URI requested) throws IOException {
    List<TreeLister.Entry> out = new ArrayList<>();
    try (JsonParser p = JSON.createParser(in)) {
      if (p.nextToken() != JsonToken.START_ARRAY) {
        throw bad(requested, "not a JSON array");
      }
      while (p.nextToken() == JsonToken.START_OBJECT) {
        String name = null;
        String type = null;
        long size = -1;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String field = p.currentName();
          JsonToken v = p.nextToken();
          if (field.equals("name") && v == JsonToken.VALUE_STRING) {
            name = p.getText();
          } else if (field.equals("type") && v == JsonToken.VALUE_STRING) {
            type = p.getText();
          } else if (field.equals("size") && v == JsonToken.VALUE_NUMBER_INT) {
            size = p.getLongValue();
          } else {
            p.skipChildren();
          }
        }
        if (name == null || type == null) {
          throw bad(requested, "an entry without name or type");
        }
        switch (type) {
          case "directory":
            out.add(new TreeLister.Entry(name, TreeLister.Kind.DIRECTORY, -1, null));
            break;
          case "file":
            out.add(new TreeLister.Entry(name, TreeLister.Kind.FILE, size < 0 ? -1 : size, null));
            break;
          default:
            out.add(
                new TreeLister.Entry(
                    name, TreeLister.Kind.OTHER, -1, "'" + type + "' entry, not a regular file"));
        }
      }
      if (p.currentToken() != JsonToken.END_ARRAY) {
        throw bad(requested, "unexpected " + p.currentToken() + " in the array");
      }
    } catch (SourceException e) {
      throw e;
    } catch (IOException e) {
      throw bad(requested, String.valueOf(e.getMessage()).replace('\n', ' '));
    }
    return out;
  }

  private static SourceException bad(URI u, String why) {
    return new SourceException(u, "malformed JSON directory index: " + why, false, null);
  }
}
